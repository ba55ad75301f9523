#pragma once
// Every asset the project ships: its name (file stem), what it is, the size it aims for, and the
// recipe that builds it. The recipes are deterministic: same code, same tetgen, same files.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "qnsim/mesh.h"

namespace qnsim::assets {

struct BuildContext {
  std::filesystem::path work_dir;  // scratch space (the npm bunny package is unpacked here)
};

struct AssetSpec {
  std::string name;
  std::string summary;
  int target_vertices;
  int target_tets;
  std::function<TetMesh(const BuildContext&)> build;
};

const std::vector<AssetSpec>& catalog();

}  // namespace qnsim::assets
