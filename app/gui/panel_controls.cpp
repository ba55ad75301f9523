// The left column: scene, simulation, view, solver and recording controls.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>

#include "app/gui/logic/param_binding.h"
#include "app/gui/panel_controls.h"
#include "app/gui/panel_edits.h"
#include "app/gui/param_widgets.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/tetgen_parameters.h"
#include "qnsim/error.h"

namespace qnsim::gui {
namespace {

// A "(?)" marker whose tooltip shows `text`.
void helpMarker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// How Open fills a surface file with tets, shown while the path names one: the declared controls, each
// checked as the scene file's "tetgen" object checks it; Open applies them (again, to re-mesh).
void drawTetgenControls(UiState& ui) {
  if (!isSurfaceFile(ui.open_path) || !ImGui::TreeNodeEx("Tetrahedralisation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  for (const TetgenParameter& p : tetgenParameters()) {
    ParameterValue value = p.get(ui.tetgen);
    if (!editParameter(p, value)) continue;
    try {
      checkParameterValue(p, value);
      p.assign(ui.tetgen, value);
    } catch (const Error& e) {
      logMessage(ui, e.what());
    }
  }
  if (ImGui::Button("Defaults")) ui.tetgen = TetgenOptions{};
  ImGui::SameLine();
  ImGui::TextDisabled("Open applies them");
  ImGui::TreePop();
}

// The opened surface's tets: the worst dihedral angles and where they are, and the histogram.
void drawMeshQuality(const Session& s) {
  if (s.mesh_quality.empty() || !ImGui::TreeNode("Mesh quality")) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextUnformatted(s.mesh_quality.c_str());
  ImGui::PopStyleColor();
  ImGui::TreePop();
}

void drawScenePanel(UiState& ui) {
  if (ui.session) {
    const Session& s = *ui.session;
    ImGui::TextUnformatted(s.name.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", s.description.c_str());
    ImGui::Text("%zu vertices, %d tets, %d springs", s.all_vertices.size(), s.tets, s.springs);
    ImGui::PopStyleColor();
    drawMeshQuality(s);
  }
  ImGui::SetNextItemWidth(-60.0f);
  const bool enter = ImGui::InputTextWithHint("##path", "scene .json or mesh file", ui.open_path, sizeof ui.open_path,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Open") || enter) && ui.open_path[0]) ui.open(ui.open_path);
  drawTetgenControls(ui);
  if (ui.loading) ImGui::TextColored({0.9f, 0.8f, 0.3f, 1}, "loading...");
  if (!ui.load_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", ui.load_error.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##catalog", "Built-in scenes...")) {
    for (const std::string& path : ui.catalog)
      if (ImGui::Selectable(path.c_str())) ui.open(path);
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##recent", "Recent files...")) {
    for (const std::string& path : ui.recent)
      if (ImGui::Selectable(path.c_str())) ui.open(path);
    ImGui::EndCombo();
  }
  ImGui::TextDisabled("Drop a scene or mesh file on the window to open it.");
}

void drawSimulationPanel(UiState& ui) {
  if (!ui.session) return;
  SimRunner& runner = *ui.session->runner;
  const Snapshot& s = *ui.snapshot;
  const float third = (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3.0f;
  if (ImGui::Button(s.playing ? "Pause" : "Play", {third, 0})) runner.setPlaying(!s.playing);
  ImGui::SameLine();
  if (ImGui::Button("Step", {third, 0})) runner.stepOnce();
  ImGui::SameLine();
  if (ImGui::Button("Reset", {third, 0})) runner.reset();
  ImGui::Text("frame %d, t = %.3f s, step %.1f ms", s.frame, s.time, s.record.frame_ms);
  const bool barrier = s.settings.contact_model == ContactModel::Barrier;
  if (barrier && (!ui.session->colliders.empty() || s.settings.self_collision.enabled)) {
    ImGui::Text("barrier pairs %d, closest %.2g mm", s.record.barrier_pairs, 1e3 * s.record.min_distance);
    ImGui::Text("smallest step bound %.2g", s.record.ccd_step);
    helpMarker("contact.model=barrier: the pairs within the barrier's reach d^ at the frame's end (vertex-collider and, with "
               "self-collisions, vertex-triangle and edge-edge), the smallest distance among them, and the smallest step bound "
               "collision detection set in the frame (1: no step was held back). A method without a line search (vbd, jacobi, "
               "pbd, xpbd) keeps the penalties' forces, no barrier acts on its pairs, and the bound is the smallest fraction of "
               "a vertex's move that collision detection kept.");
    if (s.settings.contact_push && s.record.collider_lag > 0) {
      ImGui::Text("colliders %.1f cm behind their script", 1e2 * s.record.collider_lag);
      helpMarker("contact.push: the colliders push the body within the solve and stop where it cannot give way; they "
                 "start the next frame where they stood. More iterations let the body give way sooner (docs/contact.md).");
    }
  } else if (!ui.session->colliders.empty()) {
    ImGui::Text("contacts %d, deepest %.2f mm", s.record.active_contacts, 1e3 * s.record.max_penetration);
  }
  if (s.settings.self_collision.enabled && !barrier) {
    ImGui::Text("self-contacts %d, deepest %.2f mm", s.record.self_contacts, 1e3 * s.record.max_self_penetration);
    helpMarker("Self-contact terms that push this frame (vertex-triangle and strand pairs closer than the contact distance), "
               "and the deepest: the contact distance minus the vertex's height above the triangle. More than the thickness "
               "means a vertex is through a triangle.");
  }
  if (ImGui::Checkbox("Real time (one frame per h)", &ui.real_time)) runner.setRealTime(ui.real_time);
  ImGui::SetNextItemWidth(140);
  ImGui::SliderFloat("drag stiffness", &ui.interaction.drag_stiffness_scale, 0.05f, 20.0f, "x %.2f", ImGuiSliderFlags_Logarithmic);
  helpMarker("The mouse grabs the surface vertex under it and its neighbours within 4 % of the model's size: springs "
             "k/2 |x_v - target_v|^2 in g and grad g but not in A, so dragging never refactors. Their stiffnesses sum to "
             "x 1 = the mean diagonal entry of A = M/h^2 + L.");

  Interaction& in = ui.interaction;
  ImGui::Text("%zu vertices selected", in.selection.size());
  helpMarker("Shift + left drag in the view selects every vertex (surface and interior) inside the box.");
  ImGui::BeginDisabled(in.selection.empty());
  if (ImGui::Button("Pin (P)")) runner.apply(PinVertices{in.selection, pinStiffness(ui)});
  ImGui::SameLine();
  if (ImGui::Button("Unpin (U)")) runner.apply(UnpinVertices{in.selection});
  ImGui::SameLine();
  if (ImGui::Button("Clear")) in.selection.clear();
  ImGui::EndDisabled();
  ImGui::SetNextItemWidth(140);
  ImGui::SliderFloat("pin stiffness", &in.pin_stiffness_scale, 0.01f, 100.0f, "x %.2f", ImGuiSliderFlags_Logarithmic);
  ImGui::Checkbox("Cut tool (C)", &in.cut_tool);
  helpMarker(
      "While it is on, a left drag in the view draws a line; on release every tet and spring crossed by the surface "
      "from the eye through the line is removed (a Cut edit), as tearing removes elements stretched past their "
      "material's tear_strain. Whether A is refactored is the Tearing setting tearing.matrix.");
  ImGui::SameLine();
  ImGui::Text("%d elements removed", s.removed);
  if (s.refactor_pending) ImGui::TextColored({0.9f, 0.8f, 0.3f, 1}, "refactoring A in the background...");

  ImGui::SetNextItemWidth(-110);
  ImGui::InputText("##state", ui.record.state_path, sizeof ui.record.state_path);
  ImGui::SameLine();
  if (ImGui::Button("Save")) runner.saveState(ui.record.state_path);
  ImGui::SameLine();
  if (ImGui::Button("Load")) runner.loadState(ui.record.state_path);
}

void drawViewPanel(UiState& ui) {
  int mode = static_cast<int>(ui.color_mode);
  ImGui::SetNextItemWidth(180);
  const auto label = [](void*, int i, const char** out) { return *out = colorModes()[i].label, true; };
  if (ImGui::Combo("colour", &mode, label, nullptr, static_cast<int>(colorModes().size()))) {
    ui.color_mode = static_cast<ColorMode>(mode);
    ui.field_range = 0;
    if (ui.session) ui.session->runner->setColorMode(ui.color_mode);
  }
  ImGui::Checkbox("wireframe (W)", &ui.style.wireframe);
  ImGui::SameLine(180);
  ImGui::Checkbox("ground", &ui.style.ground);
  ImGui::Checkbox("shadow", &ui.style.shadow);
  ImGui::SameLine(180);
  ImGui::Checkbox("colliders", &ui.style.colliders);
  ImGui::Checkbox("handles", &ui.show_handles);
  ImGui::SameLine(180);
  if (ImGui::Button("Frame model (F)") && ui.frame_camera) ui.frame_camera();
  if (ui.snapshot && ui.snapshot->surface->cage) ImGui::Checkbox("cage (the simulated tets, not the render mesh)", &ui.show_cage);
  ImGui::TextDisabled("Left drag: orbit, or drag a vertex\nRight / Ctrl+left drag: pan, wheel: zoom\nSpace: play/pause, S: step, R: reset");
}


void drawSolverPanel(UiState& ui) {
  if (!ui.session) return;
  const Settings settings = ui.pending.over(ui.snapshot->settings);
  std::vector<ParamGroup> groups = parameterGroups();
  std::stable_partition(groups.begin(), groups.end(), [](const ParamGroup& g) { return g.name == "Solver"; });  // the method first
  for (const ParamGroup& group : groups) {
    ImGui::TextDisabled("%s", group.name.c_str());
    for (const SettingParameter* p : group.parameters) {
      ParameterValue value = p->get(settings);
      ImGui::PushID(p->key.c_str());
      bool continuing = false;
      if (editParameter(*p, value, &continuing))
        ui.pending.sent(ui.session->runner->apply(SetParameter{p->key, value}, continuing), p->key, value);
      ImGui::PopID();
    }
  }
  ImGui::TextDisabled("Diagnostics");
  if (ImGui::Checkbox("exact solve per frame (Eq. 12)", &ui.reference)) ui.session->runner->setReference(ui.reference);
  helpMarker("Solves every frame exactly first (Newton to convergence from the same y) so that the relative error "
             "(g_k - g*) / (g_0 - g*) of Eq. 12 can be plotted. Several times slower.");
}

void drawRecordingPanel(UiState& ui) {
  if (!ui.session) return;
  SimRunner& runner = *ui.session->runner;
  const Snapshot& s = *ui.snapshot;
  ImGui::TextDisabled("Convergence graphs (CSV + SVG)");
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText("##base", ui.record.base, sizeof ui.record.base);
  ImGui::SetNextItemWidth(100);
  ImGui::InputInt("frames", &ui.record.frames);
  ui.record.frames = std::max(ui.record.frames, 1);
  ImGui::SameLine();
  if (!s.recording && ImGui::Button("Record")) runner.startRecording(ui.record.base, ui.record.frames);
  if (s.recording) {
    if (ImGui::Button("Stop")) runner.stopRecording();
    ImGui::SameLine();
    ImGui::ProgressBar(static_cast<float>(s.recorded) / std::max(s.record_target, 1), {-1, 0});
  }
  ImGui::TextDisabled("Export every frame (docs/pipeline.md)");
  ImGui::SetNextItemWidth(-90);
  ImGui::InputText("##obj", ui.record.obj_folder, sizeof ui.record.obj_folder);
  ImGui::SameLine();
  if (ImGui::Checkbox("export", &ui.record.obj_export))
    runner.setExport(ui.record.obj_export ? std::optional<std::filesystem::path>(ui.record.obj_folder) : std::nullopt,
                     static_cast<ExportFormat>(ui.record.export_format));
  ImGui::BeginDisabled(ui.record.obj_export);  // the format of an export under way stays
  ImGui::RadioButton("OBJ", &ui.record.export_format, 0);
  ImGui::SameLine();
  ImGui::RadioButton("VTK (.vtu)", &ui.record.export_format, 1);
  ImGui::SameLine();
  ImGui::RadioButton("glTF (.glb)", &ui.record.export_format, 2);
  ImGui::EndDisabled();
  ImGui::TextDisabled("Screenshot (F12)");
  ImGui::SetNextItemWidth(-90);
  ImGui::InputText("##shot", ui.record.screenshot, sizeof ui.record.screenshot);
  ImGui::SameLine();
  if (ImGui::Button("Save PNG")) ui.screenshot_request = ui.record.screenshot;
}

}  // namespace

void drawControlPanel(UiState& ui, const ImVec2& position, const ImVec2& size) {
  ImGui::SetNextWindowPos(position);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("qnsim sandbox", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
  if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) drawScenePanel(ui);
  if (ImGui::CollapsingHeader(unsavedEdits(ui) ? "Edits (unsaved)###edits" : "Edits###edits", ImGuiTreeNodeFlags_DefaultOpen))
    drawEditsPanel(ui);
  if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) drawSimulationPanel(ui);
  if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) drawViewPanel(ui);
  if (ImGui::CollapsingHeader("Solver", ImGuiTreeNodeFlags_DefaultOpen)) drawSolverPanel(ui);
  if (ImGui::CollapsingHeader("Recording")) drawRecordingPanel(ui);
  if (ImGui::CollapsingHeader("Messages")) {
    ImGui::BeginChild("##log", {0, 160}, true);
    for (const std::string& line : ui.log) ImGui::TextWrapped("%s", line.c_str());
    if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);  // follow the newest line
    ImGui::EndChild();
  }
  ImGui::End();
}

}  // namespace qnsim::gui
