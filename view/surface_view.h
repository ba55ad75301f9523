#pragma once
// What the renderer draws for the simulated bodies: the union of the bodies' surfaces, compacted to
// the vertices they use, with a material region per drawn vertex. Built once per scene from the Model.
#include <vector>

#include "core/model/model.h"
#include "view/camera.h"

namespace qnsim::view {

struct SurfaceView {
  TriIndices triangles;          // global vertex indices (for picking against the positions)
  std::vector<int> vertices;     // global index of each drawn vertex
  std::vector<unsigned> local;   // triangles as indices into `vertices`, 3 per triangle
  std::vector<int> region;       // per drawn vertex: the model region it belongs to
  std::vector<int> global_to_local;  // -1 for interior vertices
  int cloth_triangles = 0;       // drawn double sided when > 0
};

SurfaceView makeSurfaceView(const Model& model);

// Positions (3 floats per drawn vertex) and area-weighted smooth normals.
void gatherPositions(const SurfaceView& view, const VecX& x, std::vector<float>& positions);
void computeNormals(const SurfaceView& view, const std::vector<float>& positions, std::vector<float>& normals);

// Axis-aligned bounds of all vertices of x.
void bounds(const VecX& x, Vec3f& lo, Vec3f& hi);

}  // namespace qnsim::view
