#pragma once
// The scene catalog: every scenes/*.json of the source tree. The sandbox's scene menu, the tests, the
// benchmarks and the experiments all list scenes here, so a new file in scenes/ reaches all of them.
#include <filesystem>
#include <string>
#include <vector>

namespace qnsim {

std::filesystem::path catalogDir();
// scenes/NAME.json in the source tree (whether or not it exists).
std::filesystem::path catalogScenePath(const std::string& name);
// The names of the catalog's scenes (file names without .json), sorted.
std::vector<std::string> catalogSceneNames();

// Scenes too large for the tests that run every catalog scene (scenes/benchmark/*.json, such as the
// 126k-tet squirrel head): qnsim_bench --catalog runs them after the catalog.
std::filesystem::path benchmarkSceneDir();
std::vector<std::string> benchmarkSceneNames();

}  // namespace qnsim
