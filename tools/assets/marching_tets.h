#pragma once
// Isosurface extraction by marching tetrahedra on a regular grid. Unlike marching cubes it has no
// ambiguous cases, so the output is always a closed, consistently oriented 2-manifold (given that the
// shape stays inside the box). Triangles are badly shaped; the remesher fixes that afterwards.
#include "qnsim/mesh.h"
#include "tools/assets/sdf.h"

namespace qnsim::assets {

struct Grid {
  Vec3 lo;         // corner of the sampled box
  Vec3 hi;         // opposite corner
  double spacing;  // grid step (the box is grown to a whole number of cells)
};

// Zero set of f (outward normals point to f > 0). Vertices are placed by linear interpolation.
SurfaceMesh marchingTets(const Sdf& f, const Grid& grid);

}  // namespace qnsim::assets
