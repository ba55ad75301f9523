#pragma once
// Validation shared by every mesh source (files, tetgen, procedural shapes).
#include <functional>
#include <string>

#include "qnsim/mesh.h"

namespace qnsim {

// Describes where element or vertex i came from, for error messages ("bunny.ele: line 17").
using SourceLocator = std::function<std::string(int index)>;

// What checkTetMesh repaired without changing the physics (files from other tools are messy).
struct MeshRepairs {
  int slivers = 0, unused_vertices = 0, shared_positions = 0;
  bool any() const { return slivers + unused_vertices + shared_positions > 0; }
  std::string describe(const std::string& source) const;  // one warning line with the counts
};

// Throws qnsim::Error naming the first problem that cannot be repaired: no vertices or tets, non-finite
// coordinates, indices out of range, repeated vertices in a tet, mixed orientations, more than 1% of
// the tets degenerate, or two tets on the same side of a face (overlapping; a tet listed twice).
// Repairs in place what can be: drops sliver tets (|volume| below 1e-8 of the mean tet's, at most 1%
// of them), then vertices no tet uses (renumbering T), and flips a mesh whose tets are all negatively
// oriented. Vertices that share a position with another are counted, not merged.
MeshRepairs checkTetMesh(TetMesh& mesh, const std::string& source, const SourceLocator& vertex_at = {},
                         const SourceLocator& tet_at = {});

// Drops the vertices no tet uses, keeping the others' order and renumbering T. Returns how many it dropped.
int dropUnusedVertices(TetMesh& mesh);

// Throws qnsim::Error naming the first problem of a triangle surface: no vertices or faces,
// non-finite coordinates, indices out of range, a triangle repeating a vertex, a zero-area triangle.
void checkSurfaceMesh(const SurfaceMesh& surface, const std::string& source);

// Throws qnsim::Error unless every edge is shared by exactly two triangles (a closed, edge-manifold
// surface, as tetgen needs). The message names an offending edge and how many there are.
void checkClosedSurface(const SurfaceMesh& surface, const std::string& source);

}  // namespace qnsim
