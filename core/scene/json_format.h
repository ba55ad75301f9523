#pragma once
// JSON laid out as a person writes a scene file: two spaces per level, and an object or array on one
// line when it fits in 100 columns ("gravity": [0, -9.81, 0], "solver": {"method": "qn"}); a long list
// of numbers or of short lists flows over several lines. Numbers are written exactly (shortest form
// that reads back as the same double).
#include <nlohmann/json.hpp>
#include <string>

namespace qnsim {

std::string formatJson(const nlohmann::ordered_json& json);

}  // namespace qnsim
