// Methods to compare (qnsim/method.h): named sets of registry edits.
#include <algorithm>

#include "qnsim/error.h"
#include "qnsim/method.h"
#include "qnsim/parameters.h"

namespace qnsim {

Settings applyMethod(const Settings& base, const Method& method) {
  Settings s = base;
  for (const std::string& edit : method.edits) {
    try {
      const auto [key, value] = splitAssignment(edit);
      setParameter(s, key, value);
    } catch (const Error& e) {
      throw error("method '", method.label, "': ", e.what());
    }
  }
  return s;
}

Effect methodEffect(const Method& method) {
  Effect effect = Effect::Live;
  for (const std::string& edit : method.edits) effect = std::max(effect, findParameter(splitAssignment(edit).first).effect);
  return effect;
}

namespace {

// The first edit's key that a compared method may not change ("" when there is none).
std::string incomparableKey(const Method& method) {
  for (const std::string& edit : method.edits) {
    const std::string key = splitAssignment(edit).first;
    if (key.rfind("solver.", 0) != 0 || findParameter(key).effect == Effect::NewSystemMatrix) return key;
  }
  return "";
}

}  // namespace

bool comparable(const Method& method) { return incomparableKey(method).empty(); }

void checkComparable(const Method& method) {
  applyMethod(Settings(), method);  // every edit a known key with a valid value
  const std::string key = incomparableKey(method);
  if (!key.empty())
    throw error("method '", method.label, "': ", key, " is not a solver setting that keeps A = M/h^2 + L; compare it with a Simulation of its own");
}

}  // namespace qnsim
