#pragma once
// Tetrahedralisation through the `tetgen` program (Debian ships the program, not the library).
#include <filesystem>

#include "core/mesh/tet_mesh.h"

namespace qnsim {

struct TetgenOptions {
  double max_radius_edge_ratio = 1.414;  // tetgen -q quality bound
  double max_volume = 0.0;               // tetgen -a; 0 = no bound
  // Where results are cached, keyed by a hash of the surface and the options. Empty = the default
  // cache folder ($XDG_CACHE_HOME/qnsim/tetgen or ~/.cache/qnsim/tetgen).
  std::filesystem::path cache_dir;
};

// Tetrahedralises a closed, non-self-intersecting surface. On failure (open surface, self-intersections,
// missing program) throws qnsim::Error in plain words, quoting tetgen's own message.
TetMesh tetrahedralize(const SurfaceMesh& surface, const TetgenOptions& options = {});

}  // namespace qnsim
