// One widget builder for every declared parameter, the Solver panel's settings and the Materials
// tab's constants alike: the widget follows the declaration's type and range (logic/param_binding.h).
#include "app/gui/param_widgets.h"

#include <imgui.h>

#include "app/gui/logic/param_binding.h"

namespace qnsim::gui {

bool gestureContinues() { return ImGui::IsItemActive() && !ImGui::IsItemActivated(); }

bool editParameter(const Parameter& p, ParameterValue& value, bool* continuing) {
  const ParamWidget w = widgetFor(p);
  const std::string label = parameterLabel(p);
  const ImGuiSliderFlags log = w.logarithmic ? ImGuiSliderFlags_Logarithmic : 0;
  bool changed = false;
  ImGui::SetNextItemWidth(w.kind == ParamWidget::Kind::Vector3 ? 200.0f : 140.0f);
  switch (w.kind) {
    case ParamWidget::Kind::Choice: {
      std::string& current = std::get<std::string>(value);
      if (ImGui::BeginCombo(label.c_str(), current.c_str())) {
        for (const std::string& c : p.choices)
          if (ImGui::Selectable(c.c_str(), c == current)) {
            current = c;
            changed = true;
          }
        ImGui::EndCombo();
      }
      break;
    }
    case ParamWidget::Kind::Integer: {
      int& v = std::get<int>(value);
      const int lo = static_cast<int>(w.lo), hi = static_cast<int>(w.hi);
      changed = ImGui::DragInt(label.c_str(), &v, w.drag_speed, lo, hi, "%d", ImGuiSliderFlags_AlwaysClamp);
      break;
    }
    case ParamWidget::Kind::Real:
      changed = ImGui::DragScalar(label.c_str(), ImGuiDataType_Double, &std::get<double>(value), w.drag_speed, &w.lo, &w.hi, "%.4g",
                                  log | ImGuiSliderFlags_AlwaysClamp);
      break;
    case ParamWidget::Kind::Boolean: changed = ImGui::Checkbox(label.c_str(), &std::get<bool>(value)); break;
    case ParamWidget::Kind::Vector2:
      changed = ImGui::DragScalarN(label.c_str(), ImGuiDataType_Double, std::get<Vec2>(value).data(), 2, w.drag_speed, &w.lo, &w.hi,
                                   "%.3g", ImGuiSliderFlags_AlwaysClamp);
      break;
    case ParamWidget::Kind::Vector3:
      changed = ImGui::DragScalarN(label.c_str(), ImGuiDataType_Double, std::get<Vec3>(value).data(), 3, w.drag_speed, &w.lo, &w.hi,
                                   "%.3g", ImGuiSliderFlags_AlwaysClamp);
      break;
  }
  if (continuing) *continuing = gestureContinues();
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::Text("%s\n%s\nrange %s", p.key.c_str(), p.description.c_str(), describeRange(p).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  return changed;
}

}  // namespace qnsim::gui
