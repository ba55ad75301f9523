#include "core/scene/catalog.h"

#include <algorithm>

namespace qnsim {

std::filesystem::path catalogDir() { return std::filesystem::path(QNSIM_SOURCE_DIR) / "scenes"; }

std::filesystem::path catalogScenePath(const std::string& name) { return catalogDir() / (name + ".json"); }

std::vector<std::string> catalogSceneNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(catalogDir(), ec))
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace qnsim
