#pragma once
// Procedural shapes: a box of tetrahedra and a mass-spring cloth grid.
#include <vector>

#include "core/mesh/tet_mesh.h"

namespace qnsim {

// An axis-aligned box centred at the origin, `cells` cubes along each axis, five positively oriented
// tets per cube with the split mirrored on alternate cubes so that faces match.
TetMesh makeBox(const Vec3& size, const Eigen::Vector3i& cells);

// A cloth grid in the xz plane centred at the origin, `vertices` = (count along x, count along z).
// Triangles alternate their diagonal in a checkerboard. Springs as in Liu et al. 2013's code:
// structural springs on every triangle edge, bending springs between distance-2 neighbours along both
// grid axes. Vertex (i, j) has index i * vertices.y() + j.
struct ClothGrid {
  SurfaceMesh surface;
  Eigen::Matrix<int, Eigen::Dynamic, 2, Eigen::RowMajor> stretch_springs;
  Eigen::Matrix<int, Eigen::Dynamic, 2, Eigen::RowMajor> bend_springs;
  Eigen::VectorXi bend_middle;  // the vertex each bending spring bends over (its ends' common grid neighbour)
};
ClothGrid makeClothGrid(const Vec2& size, const Eigen::Vector2i& vertices);

}  // namespace qnsim
