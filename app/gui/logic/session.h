#pragma once
// A loaded scene as the window sees it: the runner that owns the Simulation, and what the panels need
// to know about the model that never changes (colliders, rest positions). Settings, materials and
// surfaces come with each snapshot, as edits, tearing and cutting change them.
#include <memory>
#include <string>
#include <vector>

#include "app/gui/logic/sim_runner.h"
#include "core/mesh/tetrahedralize.h"

namespace qnsim::gui {

struct Session {
  std::string path, name, description;
  std::unique_ptr<SimRunner> runner;
  std::vector<Collider> colliders;
  CameraDesc camera;
  VecX rest;
  std::vector<int> all_vertices;
  int tets = 0, springs = 0;
  double typical_diagonal = 1.0;  // mean diagonal entry of A = M/h^2 + L, for drag and pin stiffness
  std::string mesh_quality;       // a surface file's tets as tetgen made them (describeQuality); else empty
};

// Loads a scene or mesh file (throws qnsim::Error naming the file and field) and starts its runner. A
// surface file is tetrahedralised with `tetgen` (a scene's bodies carry their own "tetgen").
std::unique_ptr<Session> loadSession(const std::string& path, const std::vector<std::string>& overrides, bool threaded,
                                     const TetgenOptions& tetgen = {});

// Where Save scene writes by default: NAME_edited.json in the working folder, NAME the file's stem (so
// that the catalog's own scenes are never overwritten by accident).
std::string defaultSavePath(const std::string& scene_path);

// The scene files of the built-in catalog (scenes/*.json in qnsim's data folder), sorted.
std::vector<std::string> catalogScenes();

}  // namespace qnsim::gui
