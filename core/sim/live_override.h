#pragma once
// `--set KEY=VALUE` on a running simulation: what applyOverride (core/scene/scene.h) does to a scene
// before it runs, done between frames. Settings go through Simulation::setSettings, which does what
// each parameter's declared effect asks; material constants through Simulation::setMaterial. Scripts
// (the Python module's sim.set and sim.get) use it, so a live edit checks and fails exactly like --set.
#include <string>

#include "core/params/parameter.h"
#include "core/sim/simulation.h"

namespace qnsim {

// KEY is a parameter key (`qnsim params`) or material.NAME.PARAMETER; VALUE is text as after --set.
// Throws qnsim::Error with --set's messages and leaves the simulation unchanged.
void applyLiveOverride(Simulation& sim, const std::string& key, const std::string& value);
// The current value of such a key (a material constant is a double).
ParameterValue liveValue(const Simulation& sim, const std::string& key);

}  // namespace qnsim
