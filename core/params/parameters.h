#pragma once
// The parameter registry: every setting is declared once here with its key, type, default, range
// and description. The scene reader, `--set KEY=VALUE`, `qnsim params` and the UI panels are all driven
// by these declarations, so adding a parameter touches one place.
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/params/settings.h"

namespace qnsim {

using ParameterValue = std::variant<double, int, bool, std::string, Vec2, Vec3>;

struct Parameter {
  enum class Type { Real, Integer, Boolean, Choice, Vector2, Vector3 };
  std::string key;  // dotted, as in the scene file's nesting: "solver.lbfgs_window"
  std::string group;
  std::string description;
  Type type;
  ParameterValue default_value;
  double min = 0, max = 0;           // numeric range (each component for vectors)
  std::vector<std::string> choices;  // for Choice
  bool rebuilds_system = false;      // a change needs A = M/h^2 + L refactored
  std::function<ParameterValue(const Settings&)> get;
  std::function<void(Settings&, const ParameterValue&)> assign;  // unchecked; use setParameter
};

const std::vector<Parameter>& parameters();

// Throws qnsim::Error for an unknown key (suggesting the closest known keys).
const Parameter& findParameter(std::string_view key);

// Parses command-line text ("0.3", "10", "true", "qn", "0.5,1.5") or a JSON value into a checked value;
// errors name the key and say what was expected.
ParameterValue parseParameter(const Parameter& p, std::string_view text);
ParameterValue parameterFromJson(const Parameter& p, const nlohmann::json& value);

// Checks type, finiteness and range, then assigns. Errors name the key.
void setParameter(Settings& settings, const Parameter& p, const ParameterValue& value);
void setParameter(Settings& settings, std::string_view key, std::string_view text);

std::string formatParameter(const Parameter& p, const ParameterValue& value);
std::string describeRange(const Parameter& p);

}  // namespace qnsim
