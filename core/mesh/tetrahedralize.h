#pragma once
// Tetrahedralisation through the `tetgen` program (Debian ships the program, not the library).
#include <filesystem>

#include "qnsim/mesh.h"

namespace qnsim {

struct TetgenOptions {
  double max_radius_edge_ratio = 1.414;  // tetgen -q quality bound
  double max_volume = 0.0;               // tetgen -a; 0 = no bound
  double min_dihedral_degrees = 0.0;     // tetgen -q's second bound (-q1.414/15): 0 = tetgen's own
  // The resolution asked another way, when max_volume is 0: about this many tets (the -a bound from the
  // surface's enclosed volume), or tets of about this edge length (-a at a regular tet's volume).
  int target_tets = 0;
  double edge_length = 0.0;
  // Instead of tetgen: a cage of cubes, this many along the surface's longest side (voxelCage), the
  // surface drawn over it as a render mesh; 0 = the surface filled with tets.
  int cage_cells = 0;
  // Where results are cached, keyed by a hash of the surface and the options. Empty = the default
  // cache folder ($XDG_CACHE_HOME/qnsim/tetgen or ~/.cache/qnsim/tetgen).
  std::filesystem::path cache_dir;
  // tetgen is stopped after this long (it can loop on bad input or tiny quality bounds).
  double timeout_seconds = 300.0;
};

// Tetrahedralises a closed, non-self-intersecting surface. On failure (open surface, self-intersections,
// missing program) throws qnsim::Error in plain words, quoting tetgen's own message.
// A cache hit (same surface bytes and options) skips tetgen; cache write failures only warn.
TetMesh tetrahedralize(const SurfaceMesh& surface, const TetgenOptions& options = {});

// The folder results are cached in for these options (see TetgenOptions::cache_dir); empty when
// there is none (no $HOME).
std::filesystem::path tetgenCacheDir(const TetgenOptions& options);

}  // namespace qnsim
