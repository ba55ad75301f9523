#pragma once
// Save and load a simulation's dynamic state (frame, time, positions, velocities, removed elements) as JSON.
#include <filesystem>

#include "core/sim/simulation.h"

namespace qnsim {

// Throws qnsim::Error naming the file when it cannot be written.
void writeState(const std::filesystem::path& path, const Simulation::State& state);
// Throws qnsim::Error naming the file and the field on a missing file or malformed content.
Simulation::State readState(const std::filesystem::path& path);

}  // namespace qnsim
