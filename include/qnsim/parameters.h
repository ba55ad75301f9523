#pragma once
// The simulation settings' registry: every setting is declared once (core/params/parameters.cpp) as a
// Parameter bound to its member of Settings. The scene reader, `--set KEY=VALUE`, `qnsim params` and the
// Solver panel are driven by these declarations, and Simulation::apply by their effects, so adding a
// setting touches one place. Errors: the functions below throw qnsim::Error naming the key.
#include <functional>
#include <string_view>
#include <vector>

#include "qnsim/parameter.h"
#include "qnsim/settings.h"

namespace qnsim {

// A parameter of Settings: its declaration and where its value lives.
struct SettingParameter : Parameter {
  std::function<ParameterValue(const Settings&)> get;
  std::function<void(Settings&, const ParameterValue&)> assign;  // unchecked; use setParameter
};

const std::vector<SettingParameter>& parameters();

// Throws qnsim::Error for an unknown key (suggesting the closest known key).
const SettingParameter& findParameter(std::string_view key);

// Checks type, finiteness and range, then assigns. Errors name the key.
void setParameter(Settings& settings, const SettingParameter& p, const ParameterValue& value);
void setParameter(Settings& settings, std::string_view key, std::string_view text);
// "KEY=VALUE", as given to --set; throws qnsim::Error naming the assignment when it has no '='.
std::pair<std::string, std::string> splitAssignment(std::string_view assignment);

}  // namespace qnsim
