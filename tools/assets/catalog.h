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

// A render mesh (docs/pipeline.md): a fine surface written as NAME.obj with normals, drawn over the coarse
// cages of the catalog named NAME_cage*.mesh, which are placed by the same shift so that the two line up.
struct RenderSpec {
  std::string name;
  std::string summary;
  std::function<SurfaceMesh(const BuildContext&)> build;
};

const std::vector<RenderSpec>& renderCatalog();

}  // namespace qnsim::assets
