#pragma once
// Validation shared by every mesh source (files, tetgen, procedural shapes).
#include <functional>
#include <string>

#include "core/mesh/tet_mesh.h"

namespace qnsim {

// Describes where element or vertex i came from, for error messages ("bunny.ele: line 17").
using SourceLocator = std::function<std::string(int index)>;

// Throws qnsim::Error naming the first problem: no vertices or tets, non-finite coordinates, indices
// out of range, repeated vertices in a tet, degenerate tets (|volume| tiny relative to the mesh
// scale), or mixed orientations. A mesh whose tets are all negatively oriented is flipped in place.
void checkTetMesh(TetMesh& mesh, const std::string& source, const SourceLocator& vertex_at = {},
                  const SourceLocator& tet_at = {});

// Throws qnsim::Error naming the first problem of a triangle surface: no vertices or faces,
// non-finite coordinates, indices out of range, a triangle repeating a vertex, a zero-area triangle.
void checkSurfaceMesh(const SurfaceMesh& surface, const std::string& source);

// Throws qnsim::Error unless every edge is shared by exactly two triangles (a closed, edge-manifold
// surface, as tetgen needs). The message names an offending edge and how many there are.
void checkClosedSurface(const SurfaceMesh& surface, const std::string& source);

}  // namespace qnsim
