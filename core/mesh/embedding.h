#pragma once
// Embedded render meshes (RenderMesh, qnsim/model.h): a detailed surface carried by a coarse tet cage.
// Each render vertex is bound once, at load, to the tet that contains it (the one it lies deepest in, where
// tets share it) or, for a vertex just outside the cage, to the tet of the nearest boundary face, by its
// barycentric weights in that tet (negative ones outside). Then p = sum_k w_k x_k reproduces the vertex
// exactly at rest, follows the tets' motion and moves rigidly with the cage.
#include <string>

#include "qnsim/mesh.h"
#include "qnsim/model.h"

namespace qnsim {

// Binds `surface` (placed like the cage) to the tets T of the cage V (a tet body whose first vertex in the
// model is `first_vertex`). Throws qnsim::Error naming `source` when a vertex lies far outside the cage
// (farther than a tenth of the cage's size: the render mesh is most likely placed differently).
RenderMesh embedSurface(const RenderSurface& surface, const MatX3& V, const TetIndices& T, int first_vertex, const std::string& source);

// The render vertices at positions x (3n, model order): #render x 3.
MatX3 embeddedPositions(const RenderMesh& mesh, const VecX& x);

}  // namespace qnsim
