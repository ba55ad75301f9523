// SimState as JSON (qnsim/state.h). Version 2 holds the whole state; version 1 files (positions,
// velocities and removed elements) still load, their previous step taken to be their x and v.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/common/files.h"
#include "qnsim/error.h"
#include "qnsim/state.h"

namespace qnsim {
namespace {

constexpr int kVersion = 2;

// "field[i]", for messages (built by appending: GCC 12 warns falsely on `"[" + std::to_string(i)`).
std::string item(std::string field, size_t i) {
  field += '[';
  field += std::to_string(i);
  field += ']';
  return field;
}

// Reads the file's fields, naming the file and the field in every error.
class StateReader {
 public:
  StateReader(const nlohmann::json& j, const std::filesystem::path& path) : j_(j), path_(path.string()) {}

  bool has(const char* field) const { return j_.contains(field); }
  [[noreturn]] void fail(const std::string& what) const { throw error(path_, ": ", what); }

  std::vector<double> numbers(const nlohmann::json& value, const std::string& field) const {
    if (!value.is_array()) fail("field '" + field + "' is not an array");
    std::vector<double> out;
    for (size_t i = 0; i < value.size(); ++i) {
      if (!value[i].is_number()) fail(item(field, i) + " is not a number");
      out.push_back(value[i].get<double>());
    }
    return out;
  }
  VecX vector(const char* field) const {
    if (!has(field)) fail(std::string("field '") + field + "' is missing");
    const std::vector<double> v = numbers(j_[field], field);
    return Eigen::Map<const VecX>(v.data(), static_cast<Eigen::Index>(v.size()));
  }
  // A list of indices, each once and increasing (a missing field: none).
  std::vector<int> indices(const nlohmann::json& parent, const char* field, const std::string& where) const {
    std::vector<int> out;
    if (!parent.contains(field)) return out;
    if (!parent[field].is_array()) fail(where + field + " is not an array");
    for (size_t i = 0; i < parent[field].size(); ++i) {
      const nlohmann::json& value = parent[field][i];
      if (!value.is_number_integer() || value.get<long long>() < 0 || value.get<long long>() > std::numeric_limits<int>::max())
        fail(item(where + field, i) + " is not an index");
      out.push_back(value.get<int>());
    }
    if (!std::is_sorted(out.begin(), out.end()) || std::adjacent_find(out.begin(), out.end()) != out.end())
      fail(where + field + " must list each index once, in increasing order");
    return out;
  }
  ElementSet elements(const char* field) const {
    if (!has(field)) return {};
    if (!j_[field].is_object()) fail(std::string("field '") + field + "' is not an object");
    const std::string where = std::string(field) + ".";
    return {indices(j_[field], "tets", where), indices(j_[field], "springs", where)};
  }
  // A list of objects, each with exactly `n` numbers per entry read by `read`.
  template <class T, class Read>
  std::vector<T> list(const char* field, Read read) const {
    std::vector<T> out;
    if (!has(field)) return out;
    if (!j_[field].is_array()) fail(std::string("field '") + field + "' is not an array");
    for (size_t i = 0; i < j_[field].size(); ++i) out.push_back(read(numbers(j_[field][i], item(field, i)), i));
    return out;
  }

 private:
  const nlohmann::json& j_;
  std::string path_;
};

std::vector<double> numbers(const VecX& v) { return {v.data(), v.data() + v.size()}; }
nlohmann::json elements(const ElementSet& e) { return {{"tets", e.tets}, {"springs", e.springs}}; }

}  // namespace

bool SimState::operator==(const SimState& o) const {
  const auto same = [](const VecX& a, const VecX& b) { return a.size() == b.size() && a == b; };
  const auto sameRotations = [&] {
    return rotations.size() == o.rotations.size() &&
           std::equal(rotations.begin(), rotations.end(), o.rotations.begin(),
                      [](const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) { return a.coeffs() == b.coeffs(); });
  };
  return frame == o.frame && time == o.time && same(x, o.x) && same(v, o.v) && same(x_previous, o.x_previous) &&
         same(v_previous, o.v_previous) && removed == o.removed && matrix_removed == o.matrix_removed && pins == o.pins &&
         released == o.released && drags == o.drags && sameRotations() && spectral_radius == o.spectral_radius &&
         barrier_stiffness == o.barrier_stiffness && collider_poses == o.collider_poses;
}

void writeState(const std::filesystem::path& path, const SimState& s) {
  nlohmann::json j;
  j["format"] = "qnsim-state";
  j["version"] = kVersion;
  j["frame"] = s.frame;
  j["time"] = s.time;
  j["x"] = numbers(s.x);
  j["v"] = numbers(s.v);
  j["x_previous"] = numbers(s.x_previous);
  j["v_previous"] = numbers(s.v_previous);
  j["removed"] = elements(s.removed);
  j["matrix_removed"] = elements(s.matrix_removed);
  j["pins"] = nlohmann::json::array();
  for (const Pin& p : s.pins) j["pins"].push_back({p.vertex, p.point.x(), p.point.y(), p.point.z(), p.stiffness});
  j["released"] = s.released;
  j["drags"] = nlohmann::json::array();
  for (const Drag& d : s.drags) j["drags"].push_back({d.vertex, d.target.x(), d.target.y(), d.target.z(), d.stiffness});
  j["rotations"] = nlohmann::json::array();
  for (const Eigen::Quaterniond& q : s.rotations) j["rotations"].push_back({q.w(), q.x(), q.y(), q.z()});
  j["spectral_radius"] = s.spectral_radius;
  j["barrier_stiffness"] = s.barrier_stiffness;
  j["collider_poses"] = nlohmann::json::array();
  for (const ColliderPose& c : s.collider_poses) {  // position, then the rotation's rows
    std::vector<double> n(c.position.data(), c.position.data() + 3);
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) n.push_back(c.rotation(i, k));
    j["collider_poses"].push_back(n);
  }
  writeFileBytes(path, j.dump() + '\n');  // nlohmann writes each double so that it reads back the same
}

SimState readState(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw error(path.string(), ": cannot be opened");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw error(path.string(), ": not valid JSON (", e.what(), ")");
  }
  if (!j.is_object() || j.value("format", "") != "qnsim-state") throw error(path.string(), ": not a qnsim state file (\"format\": \"qnsim-state\")");
  const StateReader r(j, path);
  const bool has_version = j.contains("version");  // the earliest files have none: version 1
  if (has_version && (!j["version"].is_number_integer() || j["version"].get<int>() < 1 || j["version"].get<int>() > kVersion))
    r.fail("field 'version' must be 1 or 2 (a newer qnsim wrote it?)");
  const int version = has_version ? j["version"].get<int>() : 1;
  if (!j.contains("frame") || !j["frame"].is_number_integer()) r.fail("field 'frame' is missing or not an integer");
  if (!j.contains("time") || !j["time"].is_number()) r.fail("field 'time' is missing or not a number");
  SimState s;
  s.frame = j["frame"].get<int>();
  s.time = j["time"].get<double>();
  s.x = r.vector("x");
  s.v = r.vector("v");
  if (s.x.size() % 3 != 0 || s.x.size() != s.v.size()) r.fail("'x' and 'v' must have the same length, a multiple of 3");
  if (version == 1) {
    s.x_previous = s.x, s.v_previous = s.v;
    s.removed = s.matrix_removed = {r.indices(j, "removed_tets", ""), r.indices(j, "removed_springs", "")};
    return s;
  }
  s.x_previous = r.vector("x_previous");
  s.v_previous = r.vector("v_previous");
  if (s.x_previous.size() != s.x.size() || s.v_previous.size() != s.x.size()) r.fail("'x_previous' and 'v_previous' must have the length of 'x'");
  s.removed = r.elements("removed");
  s.matrix_removed = r.elements("matrix_removed");
  const auto entries = [&](const std::vector<double>& n, size_t i, size_t count, const char* field) {
    if (n.size() != count) r.fail(item(field, i) + " must have " + std::to_string(count) + " numbers");
    if (!(n[0] >= 0 && n[0] <= std::numeric_limits<int>::max() && n[0] == std::floor(n[0]))) r.fail(item(field, i) + " must start with a vertex index");
  };
  s.pins = r.list<Pin>("pins", [&](const std::vector<double>& n, size_t i) {
    entries(n, i, 5, "pins");
    return Pin{static_cast<int>(n[0]), Vec3(n[1], n[2], n[3]), n[4]};
  });
  s.released = r.indices(j, "released", "");
  s.drags = r.list<Drag>("drags", [&](const std::vector<double>& n, size_t i) {
    entries(n, i, 5, "drags");
    return Drag{static_cast<int>(n[0]), Vec3(n[1], n[2], n[3]), n[4]};
  });
  s.rotations = r.list<Eigen::Quaterniond>("rotations", [&](const std::vector<double>& n, size_t i) {
    if (n.size() != 4) r.fail(item("rotations", i) + " must have 4 numbers (w, x, y, z)");
    return Eigen::Quaterniond(n[0], n[1], n[2], n[3]);
  });
  if (j.contains("spectral_radius")) {
    if (!j["spectral_radius"].is_number()) r.fail("field 'spectral_radius' is not a number");
    s.spectral_radius = j["spectral_radius"].get<double>();
  }
  if (j.contains("barrier_stiffness")) {
    if (!j["barrier_stiffness"].is_number()) r.fail("field 'barrier_stiffness' is not a number");
    s.barrier_stiffness = j["barrier_stiffness"].get<double>();
  }
  if (j.contains("collider_poses"))
    s.collider_poses = r.list<ColliderPose>("collider_poses", [&](const std::vector<double>& n, size_t i) {
      if (n.size() != 12) r.fail(item("collider_poses", i) + " must have 12 numbers (position, then the rotation's rows)");
      ColliderPose c{Vec3(n[0], n[1], n[2]), Mat3()};
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) c.rotation(a, b) = n[3 + 3 * a + b];
      return c;
    });
  return s;
}

}  // namespace qnsim
