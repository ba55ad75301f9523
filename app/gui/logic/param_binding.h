#pragma once
// The Solver panel is generated from the parameter registry (qnsim/parameters.h): every declared
// parameter gets a widget from its type and range, grouped as declared, and each edit is a SetParameter
// for Simulation::apply, the same checked path as the scene file and `--set`.
#include <string>
#include <vector>

#include "qnsim/parameters.h"

namespace qnsim::gui {

struct ParamWidget {
  enum class Kind { Choice, Integer, Real, Boolean, Vector2, Vector3 };
  Kind kind;
  bool logarithmic = false;  // isLogarithmic(p): a range over three decades or more
  double lo = 0, hi = 0;
  float drag_speed = 1.0f;   // per pixel (ImGui scales it by the span for logarithmic drags)
};

struct ParamGroup {
  std::string name;
  std::vector<const SettingParameter*> parameters;  // in declaration order
};

ParamWidget widgetFor(const Parameter& p);

// The registry's groups in the order they first appear.
std::vector<ParamGroup> parameterGroups();

// The label a widget shows: the key's last part ("solver.lbfgs_window" -> "lbfgs window").
std::string parameterLabel(const Parameter& p);

}  // namespace qnsim::gui
