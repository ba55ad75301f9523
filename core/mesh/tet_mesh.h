#pragma once
// Mesh containers in libigl naming: V (#V x 3 positions), T (#T x 4 tets), F (#F x 3 triangles).
#include <string>
#include <vector>

#include "core/common/types.h"

namespace qnsim {

// A tetrahedral mesh with a region tag per tet (0 when the file has none). Regions select materials.
struct TetMesh {
  MatX3 V;
  TetIndices T;
  Eigen::VectorXi region;  // #T; one tag per tet
};

// A triangle surface (render surface, cloth, or input to tetgen).
struct SurfaceMesh {
  MatX3 V;
  TriIndices F;
};

}  // namespace qnsim
