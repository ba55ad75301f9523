#include "core/sim/live_override.h"

#include "core/common/error.h"
#include "core/params/parameters.h"

namespace qnsim {
namespace {

// Model regions are named after the scene's materials, whose names are unique (scene_reader.cpp).
int regionOfMaterial(const Simulation& sim, const std::string& key, const std::string& name) {
  const std::vector<Region>& regions = sim.model().regions;
  for (size_t r = 0; r < regions.size(); ++r)
    if (regions[r].name == name) return static_cast<int>(r);
  throw noMaterialNamed(key, name);
}

}  // namespace

void applyLiveOverride(Simulation& sim, const std::string& key, const std::string& value) {
  std::string name, parameter;
  if (!splitMaterialKey(key, name, parameter)) {
    Settings settings = sim.settings();
    setParameter(settings, key, value);
    sim.setSettings(settings);
    return;
  }
  const int region = regionOfMaterial(sim, key, name);
  sim.setMaterial(region, overrideMaterial(*sim.model().regions[region].material, key, value));
}

ParameterValue liveValue(const Simulation& sim, const std::string& key) {
  std::string name, parameter;
  if (!splitMaterialKey(key, name, parameter)) return findParameter(key).get(sim.settings());
  const Material& material = *sim.model().regions[regionOfMaterial(sim, key, name)].material;
  try {
    return material.get(parameter);
  } catch (const Error& e) {
    throw error(key, ": ", e.what());
  }
}

}  // namespace qnsim
