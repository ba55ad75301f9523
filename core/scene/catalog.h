#pragma once
// The scene catalog: every scenes/*.json of qnsim's data folder. The sandbox's scene menu, the tests,
// the benchmarks and the experiments all list scenes here, so a new file in scenes/ reaches all of them.
#include <filesystem>
#include <string>
#include <vector>

namespace qnsim {

// The folder that holds scenes/ and assets/: $QNSIM_DATA_DIR when set, else the first share/qnsim found
// in the folders above the program or module that runs this code. An installed qnsim has it at
// PREFIX/share/qnsim beside PREFIX/bin; the build tree has it at BUILD/share/qnsim, with links to the
// source's folders. Throws qnsim::Error saying where it looked when there is none.
std::filesystem::path dataDir();

std::filesystem::path catalogDir();  // dataDir() / "scenes"

// A scene or mesh path as given when it exists; else the same path in the data folder
// ("scenes/cloth.json"), else the catalog scene of that name ("cloth"); else as given, for the loader to
// say that it does not exist. So the qnsim program finds its scenes from any working directory.
std::filesystem::path resolveScenePath(const std::filesystem::path& path);
// scenes/NAME.json (whether or not it exists).
std::filesystem::path catalogScenePath(const std::string& name);
// The names of the catalog's scenes (file names without .json), sorted.
std::vector<std::string> catalogSceneNames();

// Scenes too large for the tests that run every catalog scene (scenes/benchmark/*.json, such as the
// 126k-tet squirrel head): qnsim_bench --catalog runs them after the catalog.
std::filesystem::path benchmarkSceneDir();
std::vector<std::string> benchmarkSceneNames();

}  // namespace qnsim
