#include "app/gui/logic/param_binding.h"

#include <algorithm>

#include "qnsim/error.h"

namespace qnsim::gui {

ParamWidget widgetFor(const Parameter& p) {
  ParamWidget w;
  w.lo = p.min;
  w.hi = p.max;
  switch (p.type) {
    case Parameter::Type::Choice: w.kind = ParamWidget::Kind::Choice; break;
    case Parameter::Type::Integer: w.kind = ParamWidget::Kind::Integer; break;
    case Parameter::Type::Real: w.kind = ParamWidget::Kind::Real; break;
    case Parameter::Type::Boolean: w.kind = ParamWidget::Kind::Boolean; break;
    case Parameter::Type::Vector2: w.kind = ParamWidget::Kind::Vector2; break;
    case Parameter::Type::Vector3: w.kind = ParamWidget::Kind::Vector3; break;
  }
  w.logarithmic = isLogarithmic(p);
  const double span = p.max - p.min;
  if (w.logarithmic)  // ImGui divides a logarithmic drag's speed by the span: 500 pixels cross the whole range
    w.drag_speed = static_cast<float>(span / 500.0);
  else
    w.drag_speed = w.kind == ParamWidget::Kind::Integer ? std::clamp(static_cast<float>(span / 500.0), 0.05f, 1.0f)
                                                        : static_cast<float>(std::clamp(span / 1000.0, 1e-4, 10.0));
  return w;
}

std::vector<ParamGroup> parameterGroups() {
  std::vector<ParamGroup> groups;
  for (const SettingParameter& p : parameters()) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const ParamGroup& g) { return g.name == p.group; });
    if (it == groups.end()) it = groups.insert(groups.end(), ParamGroup{p.group, {}});
    it->parameters.push_back(&p);
  }
  return groups;
}

std::string parameterLabel(const Parameter& p) {
  std::string label = p.key.substr(p.key.rfind('.') == std::string::npos ? 0 : p.key.rfind('.') + 1);
  std::replace(label.begin(), label.end(), '_', ' ');
  return label;
}

}  // namespace qnsim::gui
