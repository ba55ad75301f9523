#pragma once
// What the renderer draws for the simulated bodies: the union of the bodies' surfaces, compacted to
// the vertices they use, and strands as tubes around their segments, with a material region per drawn
// vertex. Built once per scene from the Model.
#include <memory>
#include <vector>

#include "core/model/model.h"
#include "view/camera.h"

namespace qnsim::view {

// A strand drawn as a tube: a ring of drawn vertices around each of its vertices, root to tip, then
// one cap vertex at each end.
struct Tube {
  std::vector<int> chain;  // global vertex indices, root to tip
  float radius = 0;
  int first_drawn = 0;     // its first ring's first drawn vertex
};
inline constexpr int kTubeSides = 8;

struct SurfaceView {
  TriIndices triangles;          // global vertex indices (for picking against the positions)
  std::vector<int> vertices;     // global index of each drawn vertex (a tube's rings repeat their strand vertex)
  std::vector<unsigned> local;   // triangles as indices into `vertices`, 3 per triangle
  std::vector<int> region;       // per drawn vertex: the model region it belongs to
  std::vector<int> global_to_local;  // -1 for interior vertices; a strand vertex's first ring vertex
  int cloth_triangles = 0;       // drawn double sided when > 0
  int surface_vertices = 0;      // drawn vertices of the surfaces; the tubes' follow
  std::vector<Tube> tubes;
  EdgeIndices segments;          // the strands' segments, global (for picking)
  std::vector<float> segment_radius;
  // Render meshes (Body::render), drawn after the other surfaces' vertices: drawn vertex embed_first + i is
  // sum_k embed_weight[i][k] x[embed_index[i][k]], and its entry in `vertices` the simulation vertex of
  // largest weight (its colour, and what picking it grabs). Their triangles are local[3 embed_triangles_first ..
  // 3 surface_triangles), not in `triangles`.
  int embed_first = 0, embed_triangles_first = 0, surface_triangles = 0;
  std::vector<Eigen::Vector4i> embed_index;
  std::vector<Eigen::Vector4d> embed_weight;
  // The same model drawn with the simulation surfaces instead of the render meshes (the cage); null when no
  // body has a render mesh.
  std::shared_ptr<const SurfaceView> cage;
};

// render_meshes = false draws every tet body by its simulation surface (the cage), as without render meshes.
SurfaceView makeSurfaceView(const Model& model, bool render_meshes = true);

// Positions (3 floats per drawn vertex; tube rings around their strand, turned along it by parallel
// transport so they do not twist) and area-weighted smooth normals.
void gatherPositions(const SurfaceView& view, const VecX& x, std::vector<float>& positions);
void computeNormals(const SurfaceView& view, const std::vector<float>& positions, std::vector<float>& normals);
// A per-vertex field (one value per model vertex) at drawn vertex i: a render mesh vertex interpolates it
// with its weights, any other takes its own vertex's value.
float drawnValue(const SurfaceView& view, const std::vector<float>& field, int i);

// Axis-aligned bounds of all vertices of x.
void bounds(const VecX& x, Vec3f& lo, Vec3f& hi);

}  // namespace qnsim::view
