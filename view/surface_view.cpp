#include "view/surface_view.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace qnsim::view {
namespace {

// The strands of a body as chains of vertices, root to tip: each segment joins a vertex to the next.
std::vector<std::vector<int>> chains(const EdgeIndices& segments) {
  std::map<int, int> next, previous;
  for (Eigen::Index s = 0; s < segments.rows(); ++s) {
    next[segments(s, 0)] = segments(s, 1);
    previous[segments(s, 1)] = segments(s, 0);
  }
  std::vector<std::vector<int>> out;
  for (const auto& [root, unused] : next) {
    if (previous.count(root)) continue;
    out.push_back({root});
    for (auto it = next.find(root); it != next.end(); it = next.find(it->second)) out.back().push_back(it->second);
  }
  return out;
}

// Rings of kTubeSides drawn vertices around each chain vertex, quads between rings, a cap at each end.
void addTube(SurfaceView& view, std::vector<int> chain, float radius, const std::vector<int>& region_of) {
  Tube tube{std::move(chain), radius, static_cast<int>(view.vertices.size())};
  const int n = static_cast<int>(tube.chain.size());
  for (int v : tube.chain)
    for (int j = 0; j < kTubeSides; ++j) view.vertices.push_back(v), view.region.push_back(region_of[v]);
  for (int v : {tube.chain.front(), tube.chain.back()}) view.vertices.push_back(v), view.region.push_back(region_of[v]);
  const auto ring = [&](int k, int j) { return static_cast<unsigned>(tube.first_drawn + k * kTubeSides + (j % kTubeSides)); };
  for (int k = 0; k + 1 < n; ++k)
    for (int j = 0; j < kTubeSides; ++j)
      view.local.insert(view.local.end(), {ring(k, j), ring(k, j + 1), ring(k + 1, j), ring(k, j + 1), ring(k + 1, j + 1), ring(k + 1, j)});
  const unsigned root_cap = static_cast<unsigned>(tube.first_drawn + n * kTubeSides), tip_cap = root_cap + 1;
  for (int j = 0; j < kTubeSides; ++j) {
    view.local.insert(view.local.end(), {ring(0, j + 1), ring(0, j), root_cap});
    view.local.insert(view.local.end(), {ring(n - 1, j), ring(n - 1, j + 1), tip_cap});
  }
  for (int k = 0; k < n; ++k) view.global_to_local[tube.chain[k]] = tube.first_drawn + k * kTubeSides;
  view.tubes.push_back(std::move(tube));
}

// The tube's drawn positions around the strand at x.
void tubePositions(const Tube& tube, const VecX& x, std::vector<float>& positions) {
  const int n = static_cast<int>(tube.chain.size());
  const auto at = [&](int k) { return Vec3(vertex(x, tube.chain[std::clamp(k, 0, n - 1)])); };
  const auto write = [&](int drawn, const Vec3& p) {
    for (int c = 0; c < 3; ++c) positions[3 * drawn + c] = static_cast<float>(p[c]);
  };
  Vec3 normal = Vec3::Zero(), tangent = Vec3::UnitY();
  for (int k = 0; k < n; ++k) {
    const Vec3 d = at(k + 1) - at(k - 1);
    if (d.norm() > 0) tangent = d.normalized();
    normal -= normal.dot(tangent) * tangent;  // parallel transport of the previous ring's frame
    if (normal.norm() < 1e-6) {
      int axis;
      tangent.cwiseAbs().minCoeff(&axis);
      normal = Vec3::Unit(axis) - tangent[axis] * tangent;
    }
    normal.normalize();
    const Vec3 binormal = tangent.cross(normal);
    for (int j = 0; j < kTubeSides; ++j) {
      const double angle = 2 * M_PI * j / kTubeSides;
      write(tube.first_drawn + k * kTubeSides + j, at(k) + tube.radius * (std::cos(angle) * normal + std::sin(angle) * binormal));
    }
  }
  const int caps = tube.first_drawn + n * kTubeSides;
  write(caps, at(0) - tube.radius * (at(1) - at(0)).normalized());
  write(caps + 1, at(n - 1) + tube.radius * (at(n - 1) - at(n - 2)).normalized());
}

}  // namespace

SurfaceView makeSurfaceView(const Model& model, bool render_meshes) {
  SurfaceView view;
  const auto rendered = [&](const Body& b) { return render_meshes && b.render != nullptr; };
  int rows = 0;
  for (const Body& b : model.bodies)
    if (!rendered(b)) rows += static_cast<int>(b.surface.rows());
  view.triangles.resize(rows, 3);
  int row = 0;
  for (const Body& b : model.bodies) {
    if (rendered(b)) continue;
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
  view.embed_first = static_cast<int>(view.vertices.size());
  view.embed_triangles_first = rows;
  for (const Body& b : model.bodies) {
    if (!rendered(b)) continue;
    const RenderMesh& r = *b.render;
    const unsigned first = static_cast<unsigned>(view.vertices.size());
    for (int i = 0; i < r.vertexCount(); ++i) {
      int strongest;
      r.weights[i].maxCoeff(&strongest);
      const int v = r.tet_vertices[i][strongest];
      view.vertices.push_back(v);
      view.region.push_back(region_of[v]);
      view.embed_index.push_back(r.tet_vertices[i]);
      view.embed_weight.push_back(r.weights[i]);
    }
    for (Eigen::Index f = 0; f < r.F.rows(); ++f)
      for (int c = 0; c < 3; ++c) view.local.push_back(first + static_cast<unsigned>(r.F(f, c)));
    rows += static_cast<int>(r.F.rows());
  }
  view.surface_triangles = rows;
  view.surface_vertices = static_cast<int>(view.vertices.size());
  for (const Body& b : model.bodies) {
    for (std::vector<int>& chain : chains(b.segments)) addTube(view, std::move(chain), static_cast<float>(b.strand_radius), region_of);
    view.segments.conservativeResize(view.segments.rows() + b.segments.rows(), 2);
    view.segments.bottomRows(b.segments.rows()) = b.segments;
    view.segment_radius.insert(view.segment_radius.end(), b.segments.rows(), static_cast<float>(b.strand_radius));
  }
  if (!view.embed_index.empty()) view.cage = std::make_shared<const SurfaceView>(makeSurfaceView(model, false));
  return view;
}

void gatherPositions(const SurfaceView& view, const VecX& x, std::vector<float>& positions) {
  positions.resize(3 * view.vertices.size());
  for (int i = 0; i < view.embed_first; ++i)
    for (int c = 0; c < 3; ++c) positions[3 * i + c] = static_cast<float>(x[3 * view.vertices[i] + c]);
  for (int i = view.embed_first; i < view.surface_vertices; ++i) {
    const Eigen::Vector4i& k = view.embed_index[i - view.embed_first];
    const Eigen::Vector4d& w = view.embed_weight[i - view.embed_first];
    const Vec3 p = w[0] * vertex(x, k[0]) + w[1] * vertex(x, k[1]) + w[2] * vertex(x, k[2]) + w[3] * vertex(x, k[3]);
    for (int c = 0; c < 3; ++c) positions[3 * i + c] = static_cast<float>(p[c]);
  }
  for (const Tube& tube : view.tubes) tubePositions(tube, x, positions);
}

float drawnValue(const SurfaceView& view, const std::vector<float>& field, int i) {
  if (i < view.embed_first || i >= view.surface_vertices) return field[view.vertices[i]];
  const Eigen::Vector4i& k = view.embed_index[i - view.embed_first];
  const Eigen::Vector4d& w = view.embed_weight[i - view.embed_first];
  return static_cast<float>(w[0] * field[k[0]] + w[1] * field[k[1]] + w[2] * field[k[2]] + w[3] * field[k[3]]);
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
