#pragma once
// The scene `qnsim` opens (or runs headless) when started without a subcommand. Change it here.
#include <filesystem>
#include <string>

namespace qnsim {

inline constexpr const char* kStartupScene = "scenes/twisting_bar.json";

// The default scene in the source tree, so that it is found from any working directory.
inline std::string startupScenePath() { return (std::filesystem::path(QNSIM_SOURCE_DIR) / kStartupScene).string(); }

}  // namespace qnsim
