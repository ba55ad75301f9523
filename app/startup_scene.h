#pragma once
// The scene `qnsim` opens (or runs headless) when started without a subcommand. Change it here.
#include <string>

#include "core/scene/catalog.h"

namespace qnsim {

inline constexpr const char* kStartupScene = "scenes/twisting_bar.json";

// The default scene in qnsim's data folder, so that it is found from any working directory.
inline std::string startupScenePath() { return (dataDir() / kStartupScene).string(); }

}  // namespace qnsim
