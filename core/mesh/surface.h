#pragma once
// The boundary of a tet mesh, for rendering, collision and writing surfaces.
#include "qnsim/mesh.h"

namespace qnsim {

// Faces that belong to exactly one tet, as indices into the tet mesh's V, oriented outward for
// positively oriented tets (det[b-a, c-a, d-a] > 0, as checkTetMesh leaves them). Ordered by tet,
// then by the local face (opposite corner 0, 1, 2, 3), so the result is deterministic.
TriIndices boundaryFaces(const TetIndices& T);

// The boundary as a compact surface holding only the vertices the boundary uses, in increasing
// order of their tet-mesh index. `surface_to_tet[i]` is the tet-mesh vertex of surface vertex i:
// a renderer copies deformed positions with gatherBoundaryPositions each frame. Throws qnsim::Error
// if a tet refers to a vertex outside V.
SurfaceMesh boundarySurface(const TetMesh& mesh);
SurfaceMesh boundarySurface(const TetMesh& mesh, Eigen::VectorXi& surface_to_tet);

// V.row(i) = vertex surface_to_tet[i] of the positions x (3n, tet-mesh order). Resizes V if needed.
void gatherBoundaryPositions(Eigen::Ref<const VecX> x, const Eigen::VectorXi& surface_to_tet, MatX3& V);

}  // namespace qnsim
