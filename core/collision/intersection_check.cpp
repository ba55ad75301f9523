#include "core/collision/intersection_check.h"

#include <algorithm>
#include <atomic>
#include <set>

#include "core/collision/box_grid.h"
#include "core/common/parallel.h"
#include "core/math/exact_predicates.h"

namespace qnsim {
namespace {

constexpr int kGrain = 64;  // primitives per parallel chunk

// The primitives as the model has them now.
struct Surfaces {
  std::vector<Eigen::Vector3i> triangles;
  std::vector<Eigen::Vector2i> edges;  // each once: the triangles' sides, then the strands' segments
  std::vector<int> vertices;           // of both, each once
};

Surfaces surfacesOf(const Model& model) {
  Surfaces s;
  std::set<std::pair<int, int>> edges;
  std::set<int> vertices;
  const auto addEdge = [&](int a, int b) { edges.insert({std::min(a, b), std::max(a, b)}); };
  for (const Body& body : model.bodies) {
    for (Eigen::Index f = 0; f < body.surface.rows(); ++f) {
      const Eigen::Vector3i t = body.surface.row(f);
      s.triangles.push_back(t);
      for (int k = 0; k < 3; ++k) addEdge(t[k], t[(k + 1) % 3]), vertices.insert(t[k]);
    }
    for (Eigen::Index i = 0; i < body.segments.rows(); ++i) {
      addEdge(body.segments(i, 0), body.segments(i, 1));
      vertices.insert(body.segments(i, 0)), vertices.insert(body.segments(i, 1));
    }
  }
  for (const auto& [a, b] : edges) s.edges.emplace_back(a, b);
  s.vertices.assign(vertices.begin(), vertices.end());
  return s;
}

Aabb boxOf(const VecX& x, std::initializer_list<int> corners) {
  Aabb box;
  for (int v : corners) box.extend(Vec3(vertex(x, v)));
  return box;
}

bool contains(const Eigen::Vector3i& t, int v) { return t[0] == v || t[1] == v || t[2] == v; }

bool edgeMeets(const VecX& x, int p, int q, const Eigen::Vector3i& t) {
  return segmentMeetsTriangle(vertex(x, p), vertex(x, q), vertex(x, t[0]), vertex(x, t[1]), vertex(x, t[2]));
}

// Whether triangles s and t intersect beyond what their shared corners make them share.
bool trianglesIntersect(const VecX& x, const Eigen::Vector3i& s, const Eigen::Vector3i& t) {
  const int shared = contains(t, s[0]) + contains(t, s[1]) + contains(t, s[2]);
  if (shared >= 2) return false;
  for (int k = 0; k < 3; ++k) {
    // With one shared corner only the side opposite it (the side whose ends are both unshared).
    const int a = s[k], b = s[(k + 1) % 3];
    if (!contains(t, a) && !contains(t, b) && edgeMeets(x, a, b, t)) return true;
    const int c = t[k], d = t[(k + 1) % 3];
    if (!contains(s, c) && !contains(s, d) && edgeMeets(x, c, d, s)) return true;
  }
  return false;
}

// Per chunk of `n` primitives, count(i) summed; the sum of ints does not depend on the order.
template <class Count>
int countInChunks(int n, Count count) {
  std::atomic<int> total{0};
  parallelFor(n, kGrain, [&](int begin, int end) {
    int own = 0;
    for (int i = begin; i < end; ++i) own += count(i);
    total += own;
  });
  return total;
}

}  // namespace

IntersectionCount countIntersections(const Model& model, const VecX& x, const std::vector<Collider>& colliders) {
  const Surfaces s = surfacesOf(model);
  const int nt = static_cast<int>(s.triangles.size());
  std::vector<Aabb> boxes(nt);
  double cell = 0;
  for (int f = 0; f < nt; ++f) {
    const Eigen::Vector3i& t = s.triangles[f];
    boxes[f] = boxOf(x, {t[0], t[1], t[2]});
    cell += boxes[f].sizes().maxCoeff() / nt;
  }
  BoxGrid grid;
  grid.build(boxes, std::max(cell, 1e-9));
  IntersectionCount count;
  count.triangle_pairs = countInChunks(nt, [&](int f) {
    std::vector<int> found;
    grid.query(boxes[f], found, f);  // each pair once, from its lower index
    int own = 0;
    for (int g : found) own += trianglesIntersect(x, s.triangles[f], s.triangles[g]);
    return own;
  });
  count.edge_crossings = countInChunks(static_cast<int>(s.edges.size()), [&](int e) {
    const int p = s.edges[e][0], q = s.edges[e][1];
    std::vector<int> found;
    grid.query(boxOf(x, {p, q}), found);
    int own = 0;
    for (int f : found) own += !contains(s.triangles[f], p) && !contains(s.triangles[f], q) && edgeMeets(x, p, q, s.triangles[f]);
    return own;
  });
  count.inside_colliders = countInChunks(static_cast<int>(s.vertices.size()), [&](int i) {
    const Vec3 p = vertex(x, s.vertices[i]);
    for (const Collider& c : colliders)
      if (closestSurfacePoint(c, p).distance < 0) return 1;
    return 0;
  });
  return count;
}

}  // namespace qnsim
