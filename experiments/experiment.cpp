// What every experiment shares: methods as registry edits, and files written whole.
#include "experiments/experiment.h"

#include <fstream>

#include "core/params/parameters.h"

namespace qnsim {

Settings applyMethod(const Settings& base, const MethodSpec& method) {
  Settings s = base;
  for (const std::string& o : method.overrides) {
    const auto [key, value] = splitAssignment(o);
    setParameter(s, key, value);
  }
  return s;
}

void writeTextAtomically(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path partial = path.string() + ".partial";
  std::ofstream(partial) << text;
  std::filesystem::rename(partial, path);
}

}  // namespace qnsim
