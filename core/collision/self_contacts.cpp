#include "core/collision/self_contacts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/parallel.h"
#include "core/math/proximity.h"

namespace qnsim {
namespace {

constexpr int kGrain = 128;  // vertices (or segments) per parallel chunk

Vec3 at(const VecX& x, int v) { return vertex(x, v); }

Aabb pointsBox(std::initializer_list<Vec3> points, double grow) {
  Aabb box;
  for (const Vec3& p : points) box.extend(p);
  return Aabb(box.min().array() - grow, box.max().array() + grow);
}

// The mean largest extent of the boxes, at least `floor`: the grid's cell, so that a typical box is
// listed under one cell (0.7, 1.5 and 2 times it, with boxes listed so, were slower on both folds).
double cellSize(const std::vector<Aabb>& boxes, double floor) {
  double sum = 0;
  for (const Aabb& b : boxes) sum += b.sizes().maxCoeff();
  return std::max({boxes.empty() ? 0.0 : sum / boxes.size(), floor, 1e-9});
}

// Whether q's projection on the triangle's plane lies farther than `distance` outside the line through
// one of its edges, so farther than that from the triangle: a test without the closest point or a
// square root, which most pairs that reach the narrow phase fail (neighbouring triangles of one sheet).
// The margin keeps it to pairs pointTriangleDistance would reject too, whatever its round-off.
// m: (b - a) x (c - a), the normal times twice the area.
bool besideAnEdge(const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& m, double distance) {
  const double bound = (1.0 + 1e-9) * distance * (1.0 + 1e-9) * distance * m.squaredNorm();
  const auto outside = [&](const Vec3& from, const Vec3& to) {
    const Vec3 edge = to - from;
    const double inward = m.cross(edge).dot(q - from);  // |m| |edge| times the distance inside the edge's line
    return inward < 0 && inward * inward > bound * edge.squaredNorm();
  };
  return outside(a, b) || outside(b, c) || outside(c, a);
}

bool sameBody(const CollisionPrimitives& p, int u, int v) { return p.body[u] == p.body[v]; }

// Two segments more than about 6 degrees apart whose closest points lie inside both: the distance of
// their lines is theirs, and its sign says which side of each other they are on.
// st: their closest points' parameters (closestSegmentParameters).
bool acrossInside(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, const Vec2& st) {
  const Vec3 e1 = p1 - p0, e2 = q1 - q0;
  return e1.cross(e2).squaredNorm() > 0.01 * e1.squaredNorm() * e2.squaredNorm() && st.minCoeff() > 0 && st.maxCoeff() < 1;
}

}  // namespace

CollisionPrimitives collisionPrimitives(const Model& model) {
  CollisionPrimitives p;
  p.rest = model.rest;
  p.body.assign(model.vertexCount(), -1);
  std::vector<char> on_surface(static_cast<size_t>(model.vertexCount()), 0);  // or on a strand
  std::vector<Eigen::Vector3i> triangles;
  std::vector<Eigen::Vector2i> segments;
  for (int b = 0; b < static_cast<int>(model.bodies.size()); ++b) {
    const Body& body = model.bodies[b];
    for (int v = body.first_vertex; v < body.first_vertex + body.vertex_count; ++v) p.body[v] = b;
    for (Eigen::Index f = 0; f < body.surface.rows(); ++f) {
      triangles.push_back(body.surface.row(f));
      p.two_sided.push_back(body.is_cloth);
      for (int k = 0; k < 3; ++k) on_surface[body.surface(f, k)] = 1;
    }
    for (Eigen::Index s = 0; s < body.segments.rows(); ++s) {
      segments.push_back(body.segments.row(s));
      p.radius.push_back(body.strand_radius);
      for (int k = 0; k < 2; ++k) on_surface[body.segments(s, k)] = 1;
    }
  }
  for (int v = 0; v < model.vertexCount(); ++v)
    if (on_surface[v]) p.vertices.push_back(v);
  p.triangles.resize(static_cast<Eigen::Index>(triangles.size()), 3);
  for (size_t f = 0; f < triangles.size(); ++f) p.triangles.row(static_cast<Eigen::Index>(f)) = triangles[f];
  p.segments.resize(static_cast<Eigen::Index>(segments.size()), 2);
  for (size_t s = 0; s < segments.size(); ++s) p.segments.row(static_cast<Eigen::Index>(s)) = segments[s];
  return p;
}

std::optional<SelfContactTerm> vertexTriangleTerm(const CollisionPrimitives& p, int v, int f, const VecX& x, const VecX& start,
                                                  const SelfContactParams& params) {
  const Eigen::Vector3i t = p.triangles.row(f);
  if (v == t[0] || v == t[1] || v == t[2]) return std::nullopt;
  const Vec3 a = at(x, t[0]), b = at(x, t[1]), c = at(x, t[2]), q = at(x, v);
  const Vec3 m = (b - a).cross(c - a);
  if (!(m.squaredNorm() > 1e-20 * std::pow((b - a).squaredNorm() + (c - a).squaredNorm(), 2))) return std::nullopt;  // no area
  const double delta = params.thickness;
  if (besideAnEdge(q, a, b, c, m, delta)) return std::nullopt;
  const Vec3 n = m.normalized();
  const double h = n.dot(q - a);
  if (pointTriangleDistance(q - h * n, a, b, c) > delta) return std::nullopt;  // beside the triangle
  // The side the vertex is kept on: where it started the frame for cloth, outside for a tet face
  // (within the thickness behind it still counts, so that a vertex pushed slightly in gets out).
  const double h_start = planeHeight(at(start, v), at(start, t[0]), at(start, t[1]), at(start, t[2]));
  if (!std::isfinite(h_start)) return std::nullopt;
  const double side = p.two_sided[f] ? (h_start >= 0 ? 1.0 : -1.0) : 1.0;
  if (!p.two_sided[f] && h_start <= -delta) return std::nullopt;
  if (side * h - delta >= delta) return std::nullopt;  // more than twice the thickness above the plane
  if (sameBody(p, v, t[0]) && pointTriangleDistance(at(p.rest, v), at(p.rest, t[0]), at(p.rest, t[1]), at(p.rest, t[2])) < 2 * delta)
    return std::nullopt;  // neighbours at rest
  return SelfContactTerm{SelfContactTerm::Kind::VertexTriangle, Eigen::Vector4i(v, t[0], t[1], t[2]), side, delta, params.stiffness};
}

// Two segments are kept on the side of each other they started the frame on while their closest
// points lie inside both, then and now (the lines' distance is then theirs); at an end, or when they
// are nearly parallel, their distance itself keeps them apart.
std::optional<SelfContactTerm> segmentTerm(const CollisionPrimitives& p, int i, int j, const VecX& x, const VecX& start,
                                           const SelfContactParams& params) {
  const Eigen::Vector2i s = p.segments.row(i), r = p.segments.row(j);
  if (s[0] == r[0] || s[0] == r[1] || s[1] == r[0] || s[1] == r[1]) return std::nullopt;
  const double thickness = p.radius[i] + p.radius[j];
  const Vec3 p0 = at(x, s[0]), p1 = at(x, s[1]), q0 = at(x, r[0]), q1 = at(x, r[1]);
  const Vec2 st = closestSegmentParameters(p0, p1, q0, q1);
  const bool inside = acrossInside(p0, p1, q0, q1, st);
  if (!inside && segmentDistance(st, p0, p1, q0, q1) >= 2 * thickness) return std::nullopt;  // apart, with no side to keep
  SelfContactTerm term{SelfContactTerm::Kind::Segments, Eigen::Vector4i(s[0], s[1], r[0], r[1]), 0.0, thickness, params.stiffness};
  const Vec3 s0 = at(start, s[0]), s1 = at(start, s[1]), r0 = at(start, r[0]), r1 = at(start, r[1]);
  if (inside && acrossInside(s0, s1, r0, r1, closestSegmentParameters(s0, s1, r0, r1))) term.side = lineHeight(s0, s1, r0, r1) >= 0 ? 1.0 : -1.0;
  if (term.gap(x) >= thickness) return std::nullopt;  // not within twice the contact distance
  if (sameBody(p, s[0], r[0]) && segmentDistance(at(p.rest, s[0]), at(p.rest, s[1]), at(p.rest, r[0]), at(p.rest, r[1])) < 2 * thickness)
    return std::nullopt;  // neighbours at rest
  return term;
}

Aabb vertexBox(int v, const VecX& x, const VecX& start, const SelfContactParams& params) {
  // A term lies within twice the thickness above the plane and the thickness beside the triangle, so
  // within sqrt(5) < 2.25 thickness of it (so of its box), unless the vertex went through it within the
  // frame, which the box's span from the frame's start covers.
  return pointsBox({at(x, v), at(start, v)}, 2.25 * params.thickness);
}

Aabb triangleBox(const CollisionPrimitives& p, int f, const VecX& x, const VecX& start) {
  const Eigen::Vector3i t = p.triangles.row(f);
  return pointsBox({at(x, t[0]), at(x, t[1]), at(x, t[2]), at(start, t[0]), at(start, t[1]), at(start, t[2])}, 0.0);
}

Aabb segmentBox(const CollisionPrimitives& p, int i, const VecX& x, const VecX& start) {
  const Eigen::Vector2i s = p.segments.row(i);
  return pointsBox({at(x, s[0]), at(x, s[1]), at(start, s[0]), at(start, s[1])}, 2 * p.radius[i]);
}

EdgeIndices triangleEdges(const CollisionPrimitives& p) {
  std::vector<std::pair<int, int>> edges;  // each once, sorted
  edges.reserve(static_cast<size_t>(3 * p.triangles.rows()));
  for (Eigen::Index f = 0; f < p.triangles.rows(); ++f)
    for (int k = 0; k < 3; ++k) {
      const int a = p.triangles(f, k), b = p.triangles(f, (k + 1) % 3);
      edges.emplace_back(std::min(a, b), std::max(a, b));
    }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  EdgeIndices out(static_cast<Eigen::Index>(edges.size()), 2);
  Eigen::Index row = 0;
  for (const auto& [a, b] : edges) out.row(row++) << a, b;
  return out;
}

SelfCollision::SelfCollision(const Model& model) : primitives_(collisionPrimitives(model)), edges_(triangleEdges(primitives_)) {}

// Chunks of query primitives, surface vertices first, then segments, run in parallel; body(chunk, is
// a vertex chunk, first, last) writes only its own chunk's outputs, so the results, concatenated in
// chunk order, do not depend on the thread count.
template <class Body>
void SelfCollision::forEachChunk(Body body) {
  const int nv = primitives_.triangles.rows() > 0 ? static_cast<int>(primitives_.vertices.size()) : 0;
  const int ns = static_cast<int>(primitives_.segments.rows());
  const int vertex_chunks = (nv + kGrain - 1) / kGrain, chunks = vertex_chunks + (ns + kGrain - 1) / kGrain;
  chunk_terms_.resize(chunks);
  chunk_candidates_.resize(chunks);
  parallelFor(chunks, 1, [&](int begin, int end) {
    for (int chunk = begin; chunk < end; ++chunk) {
      const bool vertices = chunk < vertex_chunks;
      const int first = (vertices ? chunk : chunk - vertex_chunks) * kGrain;
      body(chunk, vertices, first, std::min(first + kGrain, vertices ? nv : ns));
    }
  });
}

// The broad phase: for each surface vertex the triangles, and for each segment the later segments,
// whose boxes overlap its own grown by twice the padding, in the grid's order (findTerms orders the
// few terms, not the many candidates). They stay candidates for later refreshes
// of the frame while no vertex moves farther than the padding from here: boxes then grow by no more.
void SelfCollision::findCandidates(const VecX& x, const VecX& start, const SelfContactParams& params) {
  const CollisionPrimitives& p = primitives_;
  // The smallest contact distance of the primitives present (the thickness, or a strand's diameter).
  padding_ = p.triangles.rows() > 0 ? params.thickness : std::numeric_limits<double>::infinity();
  for (double r : p.radius) padding_ = std::min(padding_, 2 * r);
  triangle_grid_.build(triangle_boxes_, cellSize(triangle_boxes_, 3 * params.thickness));
  segment_grid_.build(segment_boxes_, cellSize(segment_boxes_, 0.0));
  const double grow = 2 * padding_;
  forEachChunk([&](int chunk, bool vertices, int first, int last) {
    std::vector<int>& out = chunk_candidates_[chunk];
    out.clear();
    std::vector<int> found;
    for (int i = first; i < last; ++i) {
      found.clear();
      const Aabb own = vertices ? vertexBox(p.vertices[i], x, start, params) : segment_boxes_[i];
      (vertices ? triangle_grid_ : segment_grid_).query(Aabb(own.min().array() - grow, own.max().array() + grow), found, vertices ? -1 : i);
      out.push_back(static_cast<int>(found.size()));  // each list after its length
      out.insert(out.end(), found.begin(), found.end());
    }
  });
  candidates_at_ = x;
  candidates_start_ = start;
  candidates_params_ = params;
}

bool SelfCollision::candidatesHold(const VecX& x, const VecX& start, const SelfContactParams& params) const {
  return candidates_at_.size() == x.size() && params.thickness == candidates_params_.thickness && start == candidates_start_ &&
         (x - candidates_at_).lpNorm<Eigen::Infinity>() <= padding_;
}

void SelfCollision::findTerms(const VecX& x, const VecX& start, const SelfContactParams& params, std::vector<SelfContactTerm>& terms) {
  const CollisionPrimitives& p = primitives_;
  triangle_boxes_.resize(p.triangles.rows());
  segment_boxes_.resize(p.segments.rows());
  for (int f = 0; f < p.triangles.rows(); ++f) triangle_boxes_[f] = triangleBox(p, f, x, start);
  for (int i = 0; i < p.segments.rows(); ++i) segment_boxes_[i] = segmentBox(p, i, x, start);
  if (!candidatesHold(x, start, params)) findCandidates(x, start, params);
  // The narrow phase on the candidates whose boxes overlap now.
  forEachChunk([&](int chunk, bool vertices, int first, int last) {
    std::vector<SelfContactTerm>& out = chunk_terms_[chunk];
    out.clear();
    std::vector<std::pair<int, SelfContactTerm>> own_terms;  // with the other primitive's index
    std::vector<int> overlapping;
    const std::vector<Aabb>& others = vertices ? triangle_boxes_ : segment_boxes_;
    const int* list = chunk_candidates_[chunk].data();
    for (int i = first; i < last; list += 1 + *list, ++i) {
      const Aabb own = vertices ? vertexBox(p.vertices[i], x, start, params) : segment_boxes_[i];
      // The candidates whose boxes overlap now, gathered without a branch per candidate: about half
      // of them overlap, so a branch would be mispredicted half the time.
      overlapping.resize(*list);
      int count = 0;
      for (int k = 1; k <= *list; ++k) {
        overlapping[count] = list[k];
        count += overlap(own, others[list[k]]);
      }
      own_terms.clear();
      for (int k = 0; k < count; ++k) {
        const int other = overlapping[k];
        const auto term =
            vertices ? vertexTriangleTerm(p, p.vertices[i], other, x, start, params) : segmentTerm(p, i, other, x, start, params);
        if (term) own_terms.emplace_back(other, *term);
      }
      // In the other's order, not the grid's, which depends on where the candidates were found.
      std::sort(own_terms.begin(), own_terms.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (const auto& [other, term] : own_terms) out.push_back(term);
    }
  });
  terms.clear();
  for (const auto& chunk : chunk_terms_) terms.insert(terms.end(), chunk.begin(), chunk.end());
}

bool SelfCollision::refresh(const VecX& x, const VecX& start, const SelfContactParams& params, Objective& objective) {
  const auto pushing = [&x](const std::vector<SelfContactTerm>& terms, std::vector<Eigen::Vector4i>& out) {
    out.clear();
    for (const SelfContactTerm& t : terms)
      if (t.gap(x) < 0) out.push_back(t.vertices);
  };
  pushing(objective.self_contacts, pushing_before_);
  findTerms(x, start, params, objective.self_contacts);
  pushing(objective.self_contacts, pushing_after_);
  return pushing_after_ != pushing_before_;
}

int SelfCollision::intersections(const VecX& x) {
  const CollisionPrimitives& p = primitives_;
  const int nf = static_cast<int>(p.triangles.rows()), ne = static_cast<int>(edges_.rows());
  candidates_at_.resize(0);  // the grid is rebuilt over other boxes
  triangle_boxes_.resize(nf);
  for (int f = 0; f < nf; ++f) triangle_boxes_[f] = triangleBox(p, f, x, x);
  triangle_grid_.build(triangle_boxes_, cellSize(triangle_boxes_, 0.0));
  std::vector<int> crossings(ne, 0);
  parallelFor(ne, kGrain, [&](int begin, int end) {
    std::vector<int> found;
    for (int e = begin; e < end; ++e) {
      const int u = edges_(e, 0), w = edges_(e, 1);
      found.clear();
      triangle_grid_.query(pointsBox({at(x, u), at(x, w)}, 0.0), found);
      for (int f : found) {
        const Eigen::Vector3i t = p.triangles.row(f);
        if ((t.array() == u).any() || (t.array() == w).any()) continue;
        crossings[e] += segmentCrossesTriangle(at(x, u), at(x, w), at(x, t[0]), at(x, t[1]), at(x, t[2]));
      }
    }
  });
  int count = 0;
  for (int c : crossings) count += c > 0;
  return count;
}

SelfContactStats measureSelfContacts(const std::vector<SelfContactTerm>& terms, const VecX& x) {
  SelfContactStats stats;
  for (const SelfContactTerm& t : terms) {
    const double gap = t.gap(x);
    if (gap >= 0) continue;
    ++stats.pushing;
    stats.max_penetration = std::max(stats.max_penetration, -gap);
  }
  return stats;
}

}  // namespace qnsim
