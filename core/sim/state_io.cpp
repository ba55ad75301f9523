#include "core/sim/state_io.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/common/error.h"
#include "core/common/files.h"

namespace qnsim {
namespace {

VecX readVector(const nlohmann::json& j, const char* field, const std::filesystem::path& path) {
  if (!j.contains(field) || !j[field].is_array()) throw error(path.string(), ": field '", field, "' is missing or not an array");
  VecX out(j[field].size());
  for (size_t i = 0; i < j[field].size(); ++i) {
    if (!j[field][i].is_number()) throw error(path.string(), ": ", field, "[", i, "] is not a number");
    out[static_cast<Eigen::Index>(i)] = j[field][i].get<double>();
  }
  return out;
}

// An optional list of element indices (a file from before tearing has none: nothing removed).
std::vector<int> readIndices(const nlohmann::json& j, const char* field, const std::filesystem::path& path) {
  std::vector<int> out;
  if (!j.contains(field)) return out;
  if (!j[field].is_array()) throw error(path.string(), ": field '", field, "' is not an array");
  for (size_t i = 0; i < j[field].size(); ++i) {
    const nlohmann::json& value = j[field][i];
    if (!value.is_number_integer() || value.get<long long>() < 0 || value.get<long long>() > std::numeric_limits<int>::max())
      throw error(path.string(), ": ", field, "[", i, "] is not an element index");
    out.push_back(value.get<int>());
  }
  if (!std::is_sorted(out.begin(), out.end()) || std::adjacent_find(out.begin(), out.end()) != out.end())
    throw error(path.string(), ": '", field, "' must list each element once, in increasing order");
  return out;
}

}  // namespace

void writeState(const std::filesystem::path& path, const Simulation::State& state) {
  nlohmann::json j;
  j["format"] = "qnsim-state";
  j["version"] = 1;
  j["frame"] = state.frame;
  j["time"] = state.time;
  j["x"] = std::vector<double>(state.x.data(), state.x.data() + state.x.size());
  j["v"] = std::vector<double>(state.v.data(), state.v.data() + state.v.size());
  j["removed_tets"] = state.removed.tets;
  j["removed_springs"] = state.removed.springs;
  writeFileBytes(path, j.dump() + '\n');
}

Simulation::State readState(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw error(path.string(), ": cannot be opened");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw error(path.string(), ": not valid JSON (", e.what(), ")");
  }
  if (!j.is_object() || j.value("format", "") != "qnsim-state") throw error(path.string(), ": not a qnsim state file (\"format\": \"qnsim-state\")");
  Simulation::State state;
  if (!j.contains("frame") || !j["frame"].is_number_integer()) throw error(path.string(), ": field 'frame' is missing or not an integer");
  if (!j.contains("time") || !j["time"].is_number()) throw error(path.string(), ": field 'time' is missing or not a number");
  state.frame = j["frame"].get<int>();
  state.time = j["time"].get<double>();
  state.x = readVector(j, "x", path);
  state.v = readVector(j, "v", path);
  if (state.x.size() % 3 != 0 || state.x.size() != state.v.size())
    throw error(path.string(), ": 'x' and 'v' must have the same length, a multiple of 3");
  state.removed = {readIndices(j, "removed_tets", path), readIndices(j, "removed_springs", path)};
  return state;
}

}  // namespace qnsim
