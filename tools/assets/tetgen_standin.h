#pragma once
// TEMPORARY stand-ins for qnsim::tetrahedralize and qnsim::writeMedit (core/mesh), which are being
// written on the meshio branch. Same signatures and behaviour as far as the asset tool needs; delete
// this file once meshio is merged and call the core functions instead.
#include <filesystem>

#include "core/mesh/tet_mesh.h"
#include "core/mesh/tetgen.h"

namespace qnsim::assets {

TetMesh runTetgen(const SurfaceMesh& surface, const TetgenOptions& options);
void writeOffFile(const std::filesystem::path& path, const SurfaceMesh& surface);
void writeMeditFile(const std::filesystem::path& path, const TetMesh& mesh);

}  // namespace qnsim::assets
