#include "core/scene/catalog.h"

#include <algorithm>

namespace qnsim {

std::filesystem::path catalogDir() { return std::filesystem::path(QNSIM_SOURCE_DIR) / "scenes"; }

std::filesystem::path catalogScenePath(const std::string& name) { return catalogDir() / (name + ".json"); }

namespace {

// The .json files of a folder (not of its subfolders), without the extension, sorted.
std::vector<std::string> sceneNamesIn(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::vector<std::string> catalogSceneNames() { return sceneNamesIn(catalogDir()); }

std::filesystem::path benchmarkSceneDir() { return catalogDir() / "benchmark"; }

std::vector<std::string> benchmarkSceneNames() { return sceneNamesIn(benchmarkSceneDir()); }

}  // namespace qnsim
