#pragma once
// A parameter's value as the scene file writes it (parameter.h parses the command line's text).
#include <nlohmann/json_fwd.hpp>

#include "qnsim/parameter.h"

namespace qnsim {

// A JSON value as a checked value of the parameter; errors say what was expected.
ParameterValue parameterFromJson(const Parameter& p, const nlohmann::json& value);
// The value as a scene file writes it (numbers exactly, so that reading it back gives the same bits).
nlohmann::ordered_json parameterToJson(const ParameterValue& value);

}  // namespace qnsim
