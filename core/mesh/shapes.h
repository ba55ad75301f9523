#pragma once
// Procedural shapes: a box of tetrahedra, a mass-spring cloth grid and a brush of mass-spring strands.
#include <functional>
#include <vector>

#include "qnsim/mesh.h"

namespace qnsim {

// An axis-aligned box centred at the origin, `cells` cubes along each axis, five positively oriented
// tets per cube with the split mirrored on alternate cubes so that faces match.
TetMesh makeBox(const Vec3& size, const Eigen::Vector3i& cells);

// The same split over the cells of a grid spanning `size` from `origin`, only those `keep(i, j, k)` accepts
// (every cell when `keep` is empty), with only the vertices their tets use, in grid order.
TetMesh makeCellGrid(const Vec3& origin, const Vec3& size, const Eigen::Vector3i& cells, const std::function<bool(int, int, int)>& keep);

// A cloth grid in the xz plane centred at the origin, `vertices` = (count along x, count along z).
// Triangles alternate their diagonal in a checkerboard. Springs as in Liu et al. 2013's code:
// structural springs on every triangle edge, bending springs between distance-2 neighbours along both
// grid axes. Vertex (i, j) has index i * vertices.y() + j.
SpringMesh makeClothGrid(const Vec2& size, const Eigen::Vector2i& vertices);

// A brush: `strands` = (count along x, count along z) straight strands hanging down (-y) from roots
// on a grid of `size` in the xz plane centred at the origin, each of `length` in `segments` segments.
// Stretch springs join consecutive vertices, bending springs vertices two apart. Vertex k of strand
// (i, j) has index (i * strands.y() + j) * (segments + 1) + k, k = 0 at the root.
SpringMesh makeStrands(const Vec2& size, const Eigen::Vector2i& strands, double length, int segments);

}  // namespace qnsim
