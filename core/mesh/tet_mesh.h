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

// The faces of a tet (a b c d), each opposite one corner, in the order that makes their normals point
// outward when the tet is positively oriented (det[b-a, c-a, d-a] > 0).
inline constexpr int kTetFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

// A triangle surface (render surface, cloth, or input to tetgen).
struct SurfaceMesh {
  MatX3 V;
  TriIndices F;
};

}  // namespace qnsim
