#pragma once
// A loaded scene as the window sees it: the runner that owns the Simulation, and what the panels need
// to know about the model without touching it (colliders, regions, settings). The surfaces come with
// each snapshot, as tearing and cutting change them.
#include <memory>
#include <string>
#include <vector>

#include "app/gui/logic/sim_runner.h"

namespace qnsim::gui {

struct RegionInfo {
  std::string name;
  bool solid = true;
  std::shared_ptr<Material> material;  // the window's working copy; edits are sent as clones
};

struct Session {
  std::string path, name, description;
  std::unique_ptr<SimRunner> runner;
  std::vector<Collider> colliders;
  CameraDesc camera;
  std::vector<RegionInfo> regions;
  Settings settings;  // the window's working copy
  VecX rest;
  std::vector<int> all_vertices;
  int tets = 0, springs = 0;
  double typical_diagonal = 1.0;  // mean diagonal entry of A = M/h^2 + L, for drag and pin stiffness
};

// Loads a scene or mesh file (throws qnsim::Error naming the file and field) and starts its runner.
std::unique_ptr<Session> loadSession(const std::string& path, const std::vector<std::string>& overrides, bool threaded);

// A scene path as given if it exists, else relative to the source tree (so that `qnsim` finds its
// scenes from any working directory).
std::string resolveScenePath(const std::string& path);

// The scene files of the built-in catalog (scenes/*.json in the source tree), sorted.
std::vector<std::string> catalogScenes();

}  // namespace qnsim::gui
