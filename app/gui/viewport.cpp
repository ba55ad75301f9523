#include "app/gui/viewport.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "view/colormap.h"
#include "view/picking.h"

namespace qnsim::gui {
namespace {

using view::Vec2f;
using view::Vec3f;
using Mode = Interaction::Mode;

Vec3f positionOf(const UiState& ui, int v) { return vertex(ui.snapshot->x, v).cast<float>(); }

view::Ray rayAt(const UiState& ui, const Vec2f& pixel) { return ui.camera.ray(pixel, ui.viewport_size); }

// What the viewport draws and picks on: the render meshes, or with "cage" ticked the simulation surfaces.
const std::shared_ptr<const view::SurfaceView>& shownSurface(const UiState& ui) {
  const auto& surface = ui.snapshot->surface;
  return ui.show_cage && surface->cage ? surface->cage : surface;
}

void setDrag(UiState& ui) {
  const Interaction& in = ui.interaction;
  std::vector<Drag> terms;
  for (size_t i = 0; i < in.patch.size(); ++i)
    terms.push_back({in.patch[i], (in.drag_target + in.offsets[i]).cast<double>(), dragStiffness(ui) * in.weights[i]});
  ui.session->runner->setDrag(std::move(terms));
}

// The vertices within 4 % of the model's size around the picked one, weights 1 - d/r summing to 1.
void grabPatch(UiState& ui, int picked) {
  Interaction& in = ui.interaction;
  view::Vec3f lo, hi;
  view::bounds(ui.snapshot->x, lo, hi);
  const float radius = 0.04f * (hi - lo).norm();
  const Vec3f center = positionOf(ui, picked);
  in.patch.clear();
  in.offsets.clear();
  in.weights.clear();
  float total = 0;
  for (int v : ui.session->all_vertices) {
    const Vec3f offset = positionOf(ui, v) - center;
    const float d = offset.norm();
    if (d >= radius && v != picked) continue;
    in.patch.push_back(v);
    in.offsets.push_back(offset);
    in.weights.push_back(std::max(1.0f - d / radius, 0.05f));
    total += in.weights.back();
  }
  for (float& w : in.weights) w /= total;
}

// Ctrl+Z undo, Ctrl+Shift+Z or Ctrl+Y redo, Ctrl+S save the scene.
bool handleShortcut(UiState& ui, const UiState::KeyPress& press) {
  if (!(press.mods & GLFW_MOD_CONTROL)) return false;
  SimRunner& runner = *ui.session->runner;
  if (press.key == GLFW_KEY_Z) (press.mods & GLFW_MOD_SHIFT) ? runner.redo() : runner.undo();
  else if (press.key == GLFW_KEY_Y) runner.redo();
  else if (press.key == GLFW_KEY_S) saveScene(ui);
  return true;
}

void handleKeyPress(UiState& ui, const UiState::KeyPress& press) {
  if (handleShortcut(ui, press)) return;
  SimRunner& runner = *ui.session->runner;
  Interaction& in = ui.interaction;
  switch (press.key) {
    case GLFW_KEY_SPACE: runner.setPlaying(!ui.snapshot->playing); break;
    case GLFW_KEY_S:
    case GLFW_KEY_ENTER: runner.stepOnce(); break;
    case GLFW_KEY_R: runner.reset(); break;
    case GLFW_KEY_F:
      if (ui.frame_camera) ui.frame_camera();
      break;
    case GLFW_KEY_W: ui.style.wireframe = !ui.style.wireframe; break;
    case GLFW_KEY_C: in.cut_tool = !in.cut_tool; break;
    case GLFW_KEY_P:
      if (!in.selection.empty()) runner.apply(PinVertices{in.selection, pinStiffness(ui)});
      break;
    case GLFW_KEY_U:
      if (!in.selection.empty()) runner.apply(UnpinVertices{in.selection});
      break;
    case GLFW_KEY_ESCAPE: in.selection.clear(); break;
    case GLFW_KEY_F12: ui.screenshot_request = ui.record.screenshot; break;
    default: break;
  }
}

void handleKeys(UiState& ui) {
  std::vector<UiState::KeyPress> presses;
  presses.swap(ui.key_presses);
  if (ImGui::GetIO().WantCaptureKeyboard || !ui.session) return;  // typing in a text field
  for (const UiState::KeyPress& press : presses) handleKeyPress(ui, press);
  const float orbit = 4.0f;
  if (ImGui::IsKeyDown(GLFW_KEY_LEFT)) ui.camera.orbit(-orbit, 0);
  if (ImGui::IsKeyDown(GLFW_KEY_RIGHT)) ui.camera.orbit(orbit, 0);
  if (ImGui::IsKeyDown(GLFW_KEY_UP)) ui.camera.orbit(0, orbit);
  if (ImGui::IsKeyDown(GLFW_KEY_DOWN)) ui.camera.orbit(0, -orbit);
  if (ImGui::IsKeyDown(GLFW_KEY_EQUAL) || ImGui::IsKeyDown(GLFW_KEY_KP_ADD)) ui.camera.zoom(0.1f);
  if (ImGui::IsKeyDown(GLFW_KEY_MINUS) || ImGui::IsKeyDown(GLFW_KEY_KP_SUBTRACT)) ui.camera.zoom(-0.1f);
}

void beginMouse(UiState& ui, const Vec2f& p, bool inside) {
  ImGuiIO& io = ImGui::GetIO();
  Interaction& in = ui.interaction;
  if (!inside || io.WantCaptureMouse) return;
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    if (io.KeyShift) {
      in.mode = Mode::Select;
      in.select_from = in.select_to = p;
    } else if (in.cut_tool && !io.KeyCtrl) {
      in.mode = Mode::Cut;
      in.cut_from = in.cut_to = p;
    } else if (io.KeyCtrl) {
      in.mode = Mode::Pan;
    } else {
      in.mode = beginDrag(ui, p) ? Mode::Vertex : Mode::Orbit;
    }
  } else if (ImGui::IsMouseClicked(ImGuiMouseButton_Right) || ImGui::IsMouseClicked(ImGuiMouseButton_Middle)) {
    in.mode = Mode::Pan;
  }
  if (io.MouseWheel != 0.0f) ui.camera.zoom(io.MouseWheel);
}

void continueMouse(UiState& ui, const Vec2f& p) {
  Interaction& in = ui.interaction;
  const Vec2f delta = p - in.last_mouse;
  switch (in.mode) {
    case Mode::Orbit: ui.camera.orbit(delta.x(), delta.y()); break;
    case Mode::Pan: ui.camera.pan(delta.x(), delta.y(), ui.viewport_size.y()); break;
    case Mode::Vertex: moveDrag(ui, p); break;
    case Mode::Select: in.select_to = p; break;
    case Mode::Cut: in.cut_to = p; break;
    case Mode::None: break;
  }
  const bool released = !ImGui::IsMouseDown(ImGuiMouseButton_Left) && !ImGui::IsMouseDown(ImGuiMouseButton_Right) &&
                        !ImGui::IsMouseDown(ImGuiMouseButton_Middle);
  if (!released) return;
  if (in.mode == Mode::Vertex) endDrag(ui);
  if (in.mode == Mode::Cut) cutAlong(ui, in.cut_from, in.cut_to);
  if (in.mode == Mode::Select) {
    in.selection = view::verticesInRect(ui.camera, ui.viewport_size, in.select_from, in.select_to, ui.snapshot->x, ui.session->all_vertices);
    logMessage(ui, "selected " + std::to_string(in.selection.size()) + " vertices (P pins them, U releases them)");
  }
  in.mode = Mode::None;
}

}  // namespace

bool beginDrag(UiState& ui, const Vec2f& pixel) {
  const view::PickHit hit = view::pickVertex(rayAt(ui, pixel), ui.snapshot->x, *shownSurface(ui));
  if (hit.vertex < 0) return false;
  Interaction& in = ui.interaction;
  in.dragged = hit.vertex;
  grabPatch(ui, hit.vertex);
  in.drag_plane_point = positionOf(ui, hit.vertex);
  in.drag_target = in.drag_plane_point;
  setDrag(ui);
  return true;
}

void moveDrag(UiState& ui, const Vec2f& pixel) {
  Interaction& in = ui.interaction;
  if (in.dragged < 0) return;
  in.drag_target = view::intersectPlane(rayAt(ui, pixel), in.drag_plane_point, ui.camera.forward());
  setDrag(ui);
}

void endDrag(UiState& ui) {
  ui.interaction.dragged = -1;
  ui.interaction.patch.clear();
  ui.session->runner->setDrag({});
}

void cutAlong(UiState& ui, const Vec2f& from, const Vec2f& to) {
  if ((to - from).norm() < 2.0f) return;  // a click, not a line
  const Vec3f eye = ui.camera.eye();
  ui.session->runner->apply(Cut{eye.cast<double>(), rayAt(ui, from).direction.cast<double>(), rayAt(ui, to).direction.cast<double>()});
}

void handleViewInput(UiState& ui, const ViewRect& rect) {
  if (!ui.session || !ui.snapshot) return;
  handleKeys(ui);
  if (!ImGui::IsMousePosValid()) return;  // no mouse (scripted runs) or outside the window
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Vec2f p(mouse.x - rect.x, mouse.y - rect.y);
  const bool inside = p.x() >= 0 && p.y() >= 0 && p.x() < rect.width && p.y() < rect.height;
  Interaction& in = ui.interaction;
  if (in.mode == Mode::None) beginMouse(ui, p, inside);
  else continueMouse(ui, p);
  in.last_mouse = p;
  in.hovered = -1;
  if (inside && in.mode == Mode::None && !ImGui::GetIO().WantCaptureMouse)
    in.hovered = view::pickVertex(rayAt(ui, p), ui.snapshot->x, *shownSurface(ui)).vertex;
}

void updateRenderer(UiState& ui, render::Renderer& renderer) {
  const Snapshot& s = *ui.snapshot;
  const std::shared_ptr<const view::SurfaceView>& shown = shownSurface(ui);
  const view::SurfaceView& view = *shown;
  if (ui.drawn_surface != shown) {
    renderer.setSurface(view);
    ui.drawn_surface = shown;
  }
  std::vector<float> positions, normals, colors(3 * view.vertices.size());
  view::gatherPositions(view, s.x, positions);
  view::computeNormals(view, positions, normals);
  const bool field = !s.field.empty() && s.field_mode == ui.color_mode;
  if (field) {
    std::vector<float> drawn(view.vertices.size());
    for (size_t i = 0; i < drawn.size(); ++i) drawn[i] = view::drawnValue(view, s.field, static_cast<int>(i));
    const float range = robustMax(drawn, s.field_mode == ColorMode::Inversion ? 1.0f : 1e-9f);
    ui.field_range = ui.field_range > 0 ? std::max(range, 0.95f * ui.field_range) : range;  // no flicker
  }
  for (size_t i = 0; i < view.vertices.size(); ++i) {
    Vec3f c = view::regionColor(view.region[i]);
    const float value = field ? view::drawnValue(view, s.field, static_cast<int>(i)) : 0.0f;
    if (field && s.field_mode == ColorMode::Inversion) c = value > 0 ? view::fromSrgb(225, 45, 40) : view::fromSrgb(205, 205, 200);
    else if (field) c = view::sequentialColor(value / ui.field_range);
    for (int k = 0; k < 3; ++k) colors[3 * i + k] = c[k];
  }
  renderer.updateSurface(positions, normals, colors);
  if (s.posed_colliders != ui.drawn_colliders) {  // keyframed, or moved in the Edits panel
    renderer.setColliders(s.posed_colliders);
    ui.drawn_colliders = s.posed_colliders;
  }

  std::vector<float> points, point_colors;
  const auto add = [&](int v, const Vec3f& c) {
    const Vec3f p = positionOf(ui, v);
    points.insert(points.end(), {p.x(), p.y(), p.z()});
    point_colors.insert(point_colors.end(), {c.x(), c.y(), c.z()});
  };
  if (ui.show_handles)
    for (int v : s.attached) add(v, view::fromSrgb(255, 150, 40));
  for (int v : ui.interaction.selection) add(v, view::fromSrgb(60, 200, 255));
  if (ui.interaction.hovered >= 0) add(ui.interaction.hovered, Vec3f(1, 1, 1));
  if (ui.interaction.dragged >= 0) add(ui.interaction.dragged, view::fromSrgb(255, 60, 60));
  renderer.setPoints(points, point_colors);
}

}  // namespace qnsim::gui

namespace qnsim::gui {
namespace {

ImU32 toU32(const view::Vec3f& linear) {
  const view::Vec3f c = linear.array().pow(1.0f / 2.2f).matrix();
  return ImGui::ColorConvertFloat4ToU32({c.x(), c.y(), c.z(), 1.0f});
}

void drawLegend(const UiState& ui, ImDrawList* dl, const ImVec2& corner) {
  const int segments = 32;
  const float width = 220.0f, height = 12.0f;
  dl->AddRectFilled({corner.x - 8, corner.y - 24}, {corner.x + width + 8, corner.y + height + 22}, IM_COL32(0, 0, 0, 120), 4.0f);
  dl->AddText({corner.x, corner.y - 20}, IM_COL32(230, 230, 230, 255), colorModes()[static_cast<int>(ui.color_mode)].legend);
  if (ui.color_mode == ColorMode::Inversion) {
    dl->AddRectFilled(corner, {corner.x + 12, corner.y + height}, toU32(view::fromSrgb(225, 45, 40)));
    dl->AddText({corner.x + 18, corner.y - 2}, IM_COL32(230, 230, 230, 255), "inverted (det F <= 0)");
    return;
  }
  for (int i = 0; i < segments; ++i) {
    const float x0 = corner.x + width * i / segments, x1 = corner.x + width * (i + 1) / segments;
    dl->AddRectFilled({x0, corner.y}, {x1 + 1, corner.y + height}, toU32(view::sequentialColor((i + 0.5f) / segments)));
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", ui.field_range);
  dl->AddText({corner.x, corner.y + height + 2}, IM_COL32(230, 230, 230, 255), "0");
  dl->AddText({corner.x + width - ImGui::CalcTextSize(text).x, corner.y + height + 2}, IM_COL32(230, 230, 230, 255), text);
}

}  // namespace

void drawViewOverlay(UiState& ui, const ViewRect& rect) {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const ImVec2 origin{rect.x, rect.y};
  const ImU32 text = IM_COL32(235, 235, 235, 255), dim = IM_COL32(200, 200, 200, 190);
  if (!ui.session || !ui.snapshot) {
    dl->AddText({origin.x + 16, origin.y + 16}, text, ui.loading ? "Loading..." : "Open a scene from the panel on the left.");
    return;
  }
  const Snapshot& s = *ui.snapshot;
  char line[256];
  std::snprintf(line, sizeof line, "%s%s   frame %d   t = %.2f s   %s", ui.session->name.c_str(), s.unsaved ? " *" : "", s.frame, s.time,
                s.playing ? "playing" : "paused");
  dl->AddText({origin.x + 14, origin.y + 12}, text, line);
  std::snprintf(line, sizeof line, "%.1f ms/frame (%d iterations, %d line-search trials)   window %.0f fps", s.record.frame_ms,
                s.record.iterations, s.record.ls_trials, ui.ui_fps);
  dl->AddText({origin.x + 14, origin.y + 30}, dim, line);
  const auto screen = [&](const view::Vec3f& p, ImVec2& out) {
    view::Vec2f pixel;
    if (!ui.camera.project(p, ui.viewport_size, pixel)) return false;
    out = {origin.x + pixel.x(), origin.y + pixel.y()};
    return true;
  };
  const Interaction& in = ui.interaction;
  ImVec2 a, b;
  if (in.dragged >= 0 && screen(positionOf(ui, in.dragged), a) && screen(in.drag_target, b)) {
    dl->AddLine(a, b, IM_COL32(255, 90, 70, 230), 2.5f);
    dl->AddCircle(b, 7.0f, IM_COL32(255, 90, 70, 255), 16, 2.5f);
  }
  if (in.mode == Interaction::Mode::Select) {
    const ImVec2 p{origin.x + in.select_from.x(), origin.y + in.select_from.y()}, q{origin.x + in.select_to.x(), origin.y + in.select_to.y()};
    dl->AddRectFilled(p, q, IM_COL32(60, 200, 255, 40));
    dl->AddRect(p, q, IM_COL32(60, 200, 255, 220), 0.0f, 0, 1.5f);
  }
  if (in.mode == Interaction::Mode::Cut) {
    const ImVec2 p{origin.x + in.cut_from.x(), origin.y + in.cut_from.y()}, q{origin.x + in.cut_to.x(), origin.y + in.cut_to.y()};
    dl->AddLine(p, q, IM_COL32(255, 235, 90, 240), 2.5f);
    dl->AddCircleFilled(p, 4.0f, IM_COL32(255, 235, 90, 240));
  }
  if (in.cut_tool)
    dl->AddText({origin.x + 14, origin.y + 48}, IM_COL32(255, 235, 90, 230), "cut tool: drag a line across the model (C leaves it)");
  if (ui.color_mode != ColorMode::Region) drawLegend(ui, dl, {origin.x + 22, origin.y + rect.height - 46});
  // The newest message, for a few seconds, at the bottom right of the view.
  const double age = std::chrono::duration<double>(std::chrono::steady_clock::now() - ui.last_message_time).count();
  if (!ui.log.empty() && age < 6.0) {
    const char* message = ui.log.back().c_str();
    const ImVec2 size = ImGui::CalcTextSize(message);
    const ImVec2 at{std::max(origin.x + 8, origin.x + rect.width - size.x - 16), origin.y + rect.height - size.y - 14};
    dl->AddRectFilled({at.x - 6, at.y - 4}, {at.x + size.x + 6, at.y + size.y + 4}, IM_COL32(0, 0, 0, 140), 4.0f);
    dl->AddText(at, IM_COL32(240, 240, 240, static_cast<int>(255 * std::min(1.0, 6.0 - age))), message);
  }
}

}  // namespace qnsim::gui
