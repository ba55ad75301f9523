#include "view/surface_view.h"

namespace qnsim::view {

SurfaceView makeSurfaceView(const Model& model) {
  SurfaceView view;
  int rows = 0;
  for (const Body& b : model.bodies) rows += static_cast<int>(b.surface.rows());
  view.triangles.resize(rows, 3);
  int row = 0;
  for (const Body& b : model.bodies) {
    view.triangles.middleRows(row, b.surface.rows()) = b.surface;
    row += static_cast<int>(b.surface.rows());
    if (b.is_cloth) view.cloth_triangles += static_cast<int>(b.surface.rows());
  }
  // Region per vertex: the last tet or spring touching it wins (regions are contiguous in practice).
  std::vector<int> region_of(model.vertexCount(), 0);
  for (int e = 0; e < model.tets.size(); ++e)
    for (int c = 0; c < 4; ++c) region_of[model.tets.vertices[e][c]] = model.tets.region[e];
  for (int s = model.springs.size() - 1; s >= 0; --s)  // stretch springs come first: let them win
    for (int c = 0; c < 2; ++c) region_of[model.springs.vertices[s][c]] = model.springs.region[s];

  view.global_to_local.assign(model.vertexCount(), -1);
  view.local.reserve(3 * rows);
  for (int f = 0; f < rows; ++f)
    for (int c = 0; c < 3; ++c) {
      int& local = view.global_to_local[view.triangles(f, c)];
      if (local < 0) {
        local = static_cast<int>(view.vertices.size());
        view.vertices.push_back(view.triangles(f, c));
        view.region.push_back(region_of[view.triangles(f, c)]);
      }
      view.local.push_back(static_cast<unsigned>(local));
    }
  return view;
}

void gatherPositions(const SurfaceView& view, const VecX& x, std::vector<float>& positions) {
  positions.resize(3 * view.vertices.size());
  for (size_t i = 0; i < view.vertices.size(); ++i)
    for (int c = 0; c < 3; ++c) positions[3 * i + c] = static_cast<float>(x[3 * view.vertices[i] + c]);
}

void computeNormals(const SurfaceView& view, const std::vector<float>& positions, std::vector<float>& normals) {
  normals.assign(positions.size(), 0.0f);
  const auto p = [&](unsigned i) { return Vec3f(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]); };
  for (size_t f = 0; f + 2 < view.local.size(); f += 3) {
    const unsigned a = view.local[f], b = view.local[f + 1], c = view.local[f + 2];
    const Vec3f n = (p(b) - p(a)).cross(p(c) - p(a));  // length = twice the area: area weighting
    for (unsigned v : {a, b, c})
      for (int k = 0; k < 3; ++k) normals[3 * v + k] += n[k];
  }
  for (size_t i = 0; i + 2 < normals.size(); i += 3) {
    Eigen::Map<Vec3f> n(&normals[i]);
    const float length = n.norm();
    if (length > 0.0f) n /= length;
    else n = Vec3f::UnitY();
  }
}

void bounds(const VecX& x, Vec3f& lo, Vec3f& hi) {
  const auto rows = asRows(x);
  if (rows.rows() == 0) {
    lo = hi = Vec3f::Zero();
    return;
  }
  lo = rows.colwise().minCoeff().transpose().cast<float>();
  hi = rows.colwise().maxCoeff().transpose().cast<float>();
}

}  // namespace qnsim::view
