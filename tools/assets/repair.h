#pragma once
// Making a scanned surface watertight: find the boundary loops (holes) and close each one with a fan
// around its centroid. The remesher then turns the fans into regular triangles.
#include <vector>

#include "qnsim/mesh.h"

namespace qnsim::assets {

// Boundary loops as vertex sequences, oriented like the surrounding faces' boundary edges.
std::vector<std::vector<int>> boundaryLoops(const SurfaceMesh& mesh);

// Closes every hole; returns how many were closed. Throws qnsim::Error for edges shared by more than
// two faces (the loops would be ambiguous).
int closeHoles(SurfaceMesh& mesh);

// Removes vertices that no face uses.
void dropUnusedVertices(SurfaceMesh& mesh);

// Signed volume (positive for outward-facing triangles).
double enclosedVolume(const SurfaceMesh& mesh);

}  // namespace qnsim::assets
