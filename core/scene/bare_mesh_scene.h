#pragma once
// The scene a bare mesh file opens as (qnsim run mesh.obj): dropped on a ground plane, with a corotated
// material scaled to the mesh's size.
#include <filesystem>
#include <string>
#include <vector>

#include "core/mesh/tetrahedralize.h"
#include "qnsim/scene.h"

namespace qnsim {

// `overrides`: --set assignments, as loadScene takes them; `tetgen`: how a surface is tetrahedralised.
Scene sceneForBareMesh(const std::filesystem::path& mesh_path, const std::vector<std::string>& overrides = {},
                       const TetgenOptions& tetgen = {});

}  // namespace qnsim
