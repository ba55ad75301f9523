#include "core/scene/catalog.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>

#include "qnsim/error.h"

namespace qnsim {
namespace {

// The file of the program or shared module this function was linked into.
std::filesystem::path thisBinary() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&thisBinary), &info) == 0 || !info.dli_fname) return {};
  std::error_code ec;
  const std::filesystem::path path = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::filesystem::path(info.dli_fname) : path;
}

std::filesystem::path findDataDir() {
  if (const char* given = std::getenv("QNSIM_DATA_DIR"); given && *given) return given;
  const std::filesystem::path binary = thisBinary();
  std::filesystem::path folder = binary.parent_path();
  for (int up = 0; up < 4 && !folder.empty(); ++up, folder = folder.parent_path()) {
    const std::filesystem::path candidate = folder / "share" / "qnsim";
    if (std::filesystem::is_directory(candidate / "scenes")) return candidate;
    if (folder == folder.parent_path()) break;
  }
  throw error("qnsim's data folder (share/qnsim with scenes/ and assets/) was not found above ", binary.string(),
              "; set QNSIM_DATA_DIR to it");
}

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

std::filesystem::path dataDir() {
  static const std::filesystem::path dir = findDataDir();
  return dir;
}

std::filesystem::path catalogDir() { return dataDir() / "scenes"; }

std::filesystem::path catalogScenePath(const std::string& name) { return catalogDir() / (name + ".json"); }

std::filesystem::path resolveScenePath(const std::filesystem::path& path) {
  std::error_code ec;
  if (path.empty() || path.is_absolute() || std::filesystem::exists(path, ec)) return path;
  for (const std::filesystem::path& candidate : {dataDir() / path, catalogScenePath(path.string())})
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
  return path;
}

std::vector<std::string> catalogSceneNames() { return sceneNamesIn(catalogDir()); }

std::filesystem::path benchmarkSceneDir() { return catalogDir() / "benchmark"; }

std::vector<std::string> benchmarkSceneNames() { return sceneNamesIn(benchmarkSceneDir()); }

}  // namespace qnsim
