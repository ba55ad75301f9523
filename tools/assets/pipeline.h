#pragma once
// The steps every asset goes through: a surface (implicit or scanned), remeshed to a target edge
// length, tetrahedralised by tetgen, tagged, checked and placed on the ground.
#include <functional>
#include <string>

#include "core/mesh/tetrahedralize.h"
#include "qnsim/mesh.h"
#include "tools/assets/marching_tets.h"
#include "tools/assets/sdf.h"

namespace qnsim::assets {

using SizeField = std::function<double(const Vec3&)>;

// Marching tets on `grid`, then isotropic remeshing onto the zero set of f.
SurfaceMesh meshImplicit(const Sdf& f, const Grid& grid, const SizeField& edge_length, int iterations = 20);

// Isotropic remeshing of a closed triangle surface onto itself.
SurfaceMesh remeshSurface(const SurfaceMesh& reference, double edge_length, int iterations = 20);

// A box [lo, hi] with its faces cut into a grid of `cells` along x, y, z (sharp edges kept exactly).
SurfaceMesh boxSurface(const Vec3& lo, const Vec3& hi, const Eigen::Vector3i& cells);

// tetgen, then qnsim::checkTetMesh (which also makes every tet positively oriented).
TetMesh tetrahedralizeSurface(const SurfaceMesh& surface, const TetgenOptions& options, const std::string& name);

// Sets `region` on every tet whose centroid lies inside `inside` (f < 0).
int tagRegion(TetMesh& mesh, const Sdf& inside, int region);

// Translates so the lowest vertex sits at y = 0 and the bounding box is centred on x = z = 0.
void placeOnGround(TetMesh& mesh);

}  // namespace qnsim::assets
