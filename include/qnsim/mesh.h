#pragma once
// Mesh containers in libigl naming: V (#V x 3 positions, metres), T (#T x 4 tets), F (#F x 3
// triangles), indices 0-based.
#include <string>
#include <vector>

#include "qnsim/types.h"

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

// A surface to draw (a render mesh, BodyDesc::render): triangles with, where its file has them, per-vertex
// normals and texture coordinates. A file's vertex used with different normals or texture coordinates
// becomes one vertex per combination, so that seams and hard edges stay.
struct RenderSurface {
  MatX3 V;
  TriIndices F;
  MatX3 N;   // unit normals, one row per vertex, or empty
  MatX2 UV;  // texture coordinates, one row per vertex, or empty
};

// A mass-spring body: a cloth (its triangles carry the mass and are drawn) or strands (no triangles;
// the stretch springs are the strands' segments).
struct SpringMesh {
  SurfaceMesh surface;  // V, and F for a cloth (empty for strands)
  EdgeIndices stretch_springs, bend_springs;
  Eigen::VectorXi bend_middle;  // the vertex each bending spring bends over (its ends' common neighbour)
};

}  // namespace qnsim
