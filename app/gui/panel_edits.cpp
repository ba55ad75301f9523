#include "app/gui/panel_edits.h"

#include <imgui.h>

#include <optional>
#include <string>

#include "app/gui/param_widgets.h"

namespace qnsim::gui {
namespace {

void drawSaveRow(UiState& ui) {
  ImGui::SetNextItemWidth(-110);
  ImGui::InputTextWithHint("##save", "scene file to write", ui.save_path, sizeof ui.save_path);
  ImGui::SameLine();
  if (ImGui::Button("Save scene")) saveScene(ui);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Ctrl+S. Writes the scene with every edit (settings, materials, colliders, pins as handles) as a scene "
                      "file; opened again, it runs as this one does after Reset.");
  ImGui::Checkbox("with removed elements", &ui.save_removed);
}

void drawUndoList(UiState& ui) {
  const Snapshot& s = *ui.snapshot;
  SimRunner& runner = *ui.session->runner;
  const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2.0f;
  ImGui::BeginDisabled(s.undo_done == 0);
  if (ImGui::Button("Undo (Ctrl+Z)", {half, 0})) runner.undo();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(s.undo_done == static_cast<int>(s.undo_list.size()));
  if (ImGui::Button("Redo (Ctrl+Shift+Z)", {half, 0})) runner.redo();
  ImGui::EndDisabled();
  if (s.undo_list.empty()) return ImGui::TextDisabled("No edits yet.");
  ImGui::BeginChild("##edits", {0, 96}, true);
  for (int i = static_cast<int>(s.undo_list.size()) - 1; i >= 0; --i) {  // newest first; undone ones dimmed
    if (i >= s.undo_done) ImGui::TextDisabled("%s (undone)", s.undo_list[i].c_str());
    else ImGui::TextUnformatted(s.undo_list[i].c_str());
  }
  ImGui::EndChild();
}

// One collider's pose and size; a change is a SetCollider edit, a drag one step to undo.
void drawCollider(UiState& ui, int index, Collider c) {
  ImGui::PushID(index);
  ImGui::TextDisabled("%s", c.name.c_str());
  bool changed = false, continuing = false;
  const auto edited = [&](bool now) {
    if (now) changed = true, continuing = gestureContinues();
  };
  const double lo = 1e-4, hi = 1e3;
  ImGui::SetNextItemWidth(200);
  edited(ImGui::DragScalarN(c.shape == Collider::Shape::Plane ? "point" : "center", ImGuiDataType_Double, c.position.data(), 3, 0.005f));
  switch (c.shape) {
    case Collider::Shape::Plane: break;
    case Collider::Shape::Sphere:
      ImGui::SetNextItemWidth(140);
      edited(ImGui::DragScalar("radius", ImGuiDataType_Double, &c.radius, 0.002f, &lo, &hi, "%.4g", ImGuiSliderFlags_AlwaysClamp));
      break;
    case Collider::Shape::Box:
      ImGui::SetNextItemWidth(200);
      edited(ImGui::DragScalarN("half extents", ImGuiDataType_Double, c.half_extents.data(), 3, 0.002f, &lo, &hi, "%.4g",
                                ImGuiSliderFlags_AlwaysClamp));
      break;
    case Collider::Shape::Capsule:
      ImGui::SetNextItemWidth(140);
      edited(ImGui::DragScalar("radius", ImGuiDataType_Double, &c.radius, 0.002f, &lo, &hi, "%.4g", ImGuiSliderFlags_AlwaysClamp));
      ImGui::SetNextItemWidth(140);
      edited(ImGui::DragScalar("half length", ImGuiDataType_Double, &c.half_length, 0.002f, &lo, &hi, "%.4g", ImGuiSliderFlags_AlwaysClamp));
      break;
    case Collider::Shape::Torus:
      ImGui::SetNextItemWidth(140);
      edited(ImGui::DragScalar("major radius", ImGuiDataType_Double, &c.major_radius, 0.002f, &c.minor_radius, &hi, "%.4g",
                               ImGuiSliderFlags_AlwaysClamp));
      ImGui::SetNextItemWidth(140);
      edited(ImGui::DragScalar("minor radius", ImGuiDataType_Double, &c.minor_radius, 0.002f, &lo, &c.major_radius, "%.4g",
                               ImGuiSliderFlags_AlwaysClamp));
      break;
  }
  if (changed) ui.session->runner->apply(SetCollider{index, c}, continuing);
  ImGui::PopID();
}

}  // namespace

void drawEditsPanel(UiState& ui) {
  if (!ui.session || !ui.snapshot) return;
  drawSaveRow(ui);
  drawUndoList(ui);
  const std::vector<Collider>& colliders = ui.snapshot->colliders;
  if (!colliders.empty() && ImGui::TreeNode("Colliders")) {
    for (size_t i = 0; i < colliders.size(); ++i) drawCollider(ui, static_cast<int>(i), colliders[i]);
    ImGui::TreePop();
  }
}

void drawUnsavedQuestion(UiState& ui) {
  if (!ui.unsaved_guard.asking()) return;
  constexpr const char* kTitle = "Unsaved edits";
  if (!ImGui::IsPopupOpen(kTitle)) ImGui::OpenPopup(kTitle);
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, {0.5f, 0.5f});
  if (!ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::Text("'%s' has edits that are not saved.", ui.session ? ui.session->name.c_str() : "");
  ImGui::Text("Save them to %s before you %s?", ui.save_path, ui.unsaved_guard.what().c_str());
  using Answer = UnsavedGuard::Answer;
  std::optional<Answer> answer;
  if (ImGui::Button("Save", {110, 0})) answer = Answer::Save;
  ImGui::SameLine();
  if (ImGui::Button("Discard", {110, 0})) answer = Answer::Discard;
  ImGui::SameLine();
  if (ImGui::Button("Cancel", {110, 0}) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) answer = Answer::Cancel;
  if (answer) {
    ui.unsaved_guard.answer(*answer, [&] { return saveScene(ui); });
    if (!ui.unsaved_guard.asking()) ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace qnsim::gui
