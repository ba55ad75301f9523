#pragma once
// Isotropic surface remeshing (Botsch & Kobbelt 2004): split long edges, collapse short ones, flip
// towards valence 6, relax tangentially and project back onto the reference surface. The result has
// near-equilateral triangles of the requested size, which keeps tetgen -q from creating slivers.
#include <functional>

#include "qnsim/mesh.h"

namespace qnsim::assets {

struct RemeshOptions {
  std::function<double(const Vec3&)> edge_length;  // target edge length where the edge is
  std::function<Vec3(const Vec3&)> project;        // onto the reference surface
  int iterations = 10;
};

// Input: a closed 2-manifold (throws qnsim::Error otherwise). Output: the remeshed surface.
SurfaceMesh remesh(const SurfaceMesh& input, const RemeshOptions& options);

struct SurfaceQuality {
  double min_angle_deg = 0;
  double mean_edge = 0;
  int vertices = 0, faces = 0;
};
SurfaceQuality surfaceQuality(const SurfaceMesh& mesh);

}  // namespace qnsim::assets
