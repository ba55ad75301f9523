// Self-contact's broad phase (self_barrier.h): the candidate pairs along a path, kept from step to step
// while positions stay within their reach, filtered from a wider search's as a Verlet list, and, where
// a few vertices stray from that search's path, completed by a search for the pairs they are in alone.
#include <algorithm>
#include <cmath>

#include "core/collision/self_barrier.h"
#include "core/common/parallel.h"

namespace qnsim {
namespace {

// The energy's candidates are the pairs within (1 + kPad) d^ where they were found, kept while no vertex
// moves more than kPad d^ / 2 relative to the others (4 measured faster than 1 on cloth_sphere_fold).
constexpr double kPad = 1.0;
// The wider candidates they are filtered from hold the pairs within kOuterPad d^ more, and serve while
// no vertex moves more than kOuterPad d^ / 2 relative to the others.
constexpr double kOuterPad = 4.0;
// The wider candidates also serve while at most this share of the surface vertices has strayed that
// far: the pairs with one of them as a corner are then searched for alone (0.3 measured fastest of
// 0.05-0.7 on the bunny through the torus with self-contact; docs/contact.md).
constexpr double kStrayedShare = 0.3;

Vec3 at(const VecX& x, int v) { return vertex(x, v); }

// The candidates' order: by kind (vertex-triangle, edge-edge, vertex-segment), then by their first and
// second primitives, as a search finds them. The energy sums the pairs within d^ in this order, so its
// bits depend on which pairs those are, not on the searches that found them: a simulation resumed from
// a saved state, without the last frame's candidates, continues bit for bit.
bool inOrder(const SelfBarrier::Pair& p, const SelfBarrier::Pair& q) {
  return p.kind != q.kind ? p.kind < q.kind : p.a != q.a ? p.a < q.a : p.b < q.b;
}

// The box of some model vertices on their path (their boxes from sweptBoxes), grown by `grow`.
template <class Indices>
Aabb box(const Indices& vertices, const std::vector<Aabb>& vertex_boxes, double grow) {
  Aabb b = vertex_boxes[vertices[0]];
  for (int k = 1; k < vertices.size(); ++k) b.extend(vertex_boxes[vertices[k]]);
  return Aabb(b.min().array() - grow, b.max().array() + grow);
}
// The pairs make(i, j, pair) keeps (it returns true) of each query i in [0, n), whose box is box_of(i),
// with each `listed` box j that overlaps it: a grid over the listed boxes, queried in parallel chunks,
// the pairs in query order.
template <class BoxOf, class Make>
std::vector<SelfBarrier::Pair> overlappingPairs(const std::vector<Aabb>& listed, int n, int grain, BoxOf box_of, Make make) {
  std::vector<SelfBarrier::Pair> out;
  if (listed.empty() || n == 0) return out;
  double extent = 0;
  for (const Aabb& b : listed) extent += b.sizes().maxCoeff();
  BoxGrid grid;
  grid.build(listed, std::max(extent / static_cast<double>(listed.size()), 1e-9));
  const int chunks = (n + grain - 1) / grain;
  std::vector<std::vector<SelfBarrier::Pair>> found(static_cast<size_t>(chunks));
  parallelFor(chunks, 1, [&](int begin, int end) {
    std::vector<int> hits;
    SelfBarrier::Pair pair;
    for (int chunk = begin; chunk < end; ++chunk)
      for (int i = chunk * grain; i < std::min(n, (chunk + 1) * grain); ++i) {
        hits.clear();
        grid.query(box_of(i), hits);
        for (int j : hits)
          if (make(i, j, pair)) found[chunk].push_back(pair);
      }
  });
  for (const auto& f : found) out.insert(out.end(), f.begin(), f.end());
  return out;
}

}  // namespace

// The primitives' boxes on the path x + [0, 1] sweep (or at x without a sweep): each primitive vertex's,
// then each triangle's grown by `grow` and each edge's by half of it, into the scratch arrays.
void SelfBarrier::sweptBoxes(const VecX& x, const VecX* sweep, double grow) const {
  const CollisionPrimitives& p = primitives_;
  const int nv = static_cast<int>(p.vertices.size()), nf = static_cast<int>(p.triangles.rows());
  const int ne = static_cast<int>(edges_.rows());
  vertex_boxes_.resize(static_cast<size_t>(x.size() / 3));
  parallelFor(nv, 1024, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      const int v = p.vertices[i];
      Aabb& b = vertex_boxes_[v];
      b = Aabb(at(x, v), at(x, v));
      if (sweep) b.extend(at(x, v) + at(*sweep, v));
    }
  });
  triangle_boxes_.resize(static_cast<size_t>(nf));
  edge_boxes_.resize(static_cast<size_t>(ne));
  parallelFor(nf + ne, 1024, [&](int begin, int end) {
    for (int i = begin; i < end; ++i)
      if (i < nf)
        triangle_boxes_[i] = box(Eigen::Vector3i(p.triangles.row(i)), vertex_boxes_, grow);
      else
        edge_boxes_[i - nf] = box(Eigen::Vector2i(edges_.row(i - nf)), vertex_boxes_, 0.5 * grow);
  });
}

std::vector<SelfBarrier::Pair> SelfBarrier::candidates(const VecX& x, const VecX* sweep, double grow) const {
  const CollisionPrimitives& p = primitives_;
  sweptBoxes(x, sweep, grow);
  const std::vector<Aabb>& vertex_boxes = vertex_boxes_;
  const std::vector<Aabb>& triangle_boxes = triangle_boxes_;
  const std::vector<Aabb>& edge_boxes = edge_boxes_;
  const int nv = static_cast<int>(p.vertices.size()), nf = static_cast<int>(p.triangles.rows());
  const int ne = static_cast<int>(edges_.rows());
  double extent = 0;  // summed in order: the same cells on any thread count
  for (const Aabb& b : triangle_boxes) extent += b.sizes().maxCoeff();
  for (const Aabb& b : edge_boxes) extent += b.sizes().maxCoeff();
  const double cell = std::max(extent / std::max(1, nf + ne), 1e-9);  // a typical box under one cell
  BoxGrid& triangles = triangle_grid_;
  BoxGrid& edges = edge_grid_;
  parallelFor(2, 1, [&](int begin, int end) {  // the two grids side by side
    for (int grid = begin; grid < end; ++grid) {
      if (grid == 0) triangles.build(triangle_boxes, cell);
      if (grid == 1) edges.build(edge_boxes, cell);
    }
  });
  // Chunks of vertices (against triangles), of edges (against later edges), of strand vertices
  // (against segments), in this order.
  const int ns = static_cast<int>(strand_vertices_.size());
  const std::array<int, 3> counts = {nv, ne, ns};
  std::array<int, 4> first_chunk = {0, 0, 0, 0};
  for (int k = 0; k < 3; ++k) first_chunk[k + 1] = first_chunk[k] + (counts[k] + kGrain - 1) / kGrain;
  const int chunks = first_chunk[3];
  std::vector<std::vector<Pair>> found(static_cast<size_t>(chunks));
  parallelFor(chunks, 1, [&](int begin, int end) {
    std::vector<int> hits;
    for (int chunk = begin; chunk < end; ++chunk) {
      const int k = chunk < first_chunk[1] ? 0 : chunk < first_chunk[2] ? 1 : 2;
      const Kind kind = k == 0 ? Kind::VertexTriangle : k == 1 ? Kind::EdgeEdge : Kind::VertexSegment;
      const int first = (chunk - first_chunk[k]) * kGrain, last = std::min(counts[k], first + kGrain);
      for (int i = first; i < last; ++i) {
        hits.clear();
        int a = i;
        if (kind == Kind::VertexTriangle) {
          a = p.vertices[i];
          triangles.query(vertex_boxes[a], hits);
        } else if (kind == Kind::EdgeEdge) {
          edges.query(edge_boxes[i], hits, i);
        } else {
          a = strand_vertices_[i];
          edges.query(box(Eigen::Matrix<int, 1, 1>(a), vertex_boxes, 0.5 * grow), hits);
        }
        std::sort(hits.begin(), hits.end());  // the pairs in their order (below), whatever the grid
        for (int j : hits) {
          if (kind == Kind::VertexSegment && j < first_segment_) continue;
          const Pair pair{kind, a, j};
          if (counted(pair)) found[chunk].push_back(pair);
        }
      }
    }
  });
  std::vector<Pair> out;
  for (const auto& f : found) out.insert(out.end(), f.begin(), f.end());
  return out;
}

// How far z lies from the path some candidates were found along, in the motion that can bring pairs
// closer: each primitive vertex's squared distance from the path's point nearest z (in the least-squares
// sense, the same point for all: it bounds the true nearest), once the mean motion is removed, into
// off_path_ (in primitives_.vertices' order). Returns the largest.
double SelfBarrier::offPath(const Candidates& path, const VecX& z) const {
  const std::vector<int>& vertices = primitives_.vertices;
  double along = 0, length2 = 0;
  for (int v : vertices) {
    along += at(path.sweep, v).dot(at(z, v) - at(path.from, v));
    length2 += at(path.sweep, v).squaredNorm();
  }
  const double t = length2 > 0 ? std::clamp(along / length2, 0.0, 1.0) : 0.0;
  Vec3 mean = Vec3::Zero();
  for (int v : vertices) mean += at(z, v) - at(path.from, v) - t * at(path.sweep, v);
  if (!vertices.empty()) mean /= static_cast<double>(vertices.size());
  off_path_.resize(vertices.size());
  double largest = 0.0;
  for (size_t i = 0; i < vertices.size(); ++i) {
    const int v = vertices[i];
    off_path_[i] = (at(z, v) - at(path.from, v) - t * at(path.sweep, v) - mean).squaredNorm();
    largest = std::max(largest, off_path_[i]);
  }
  return std::sqrt(largest);
}

// Two vertices less than pad d^ off a path relative to each other: a pair within r at z was within
// r + pad d^ somewhere on the path (the distance of two primitives moves no more than their vertices).
bool SelfBarrier::covers(const Candidates& path, const VecX& z, double pad) const {
  return path.valid && offPath(path, z) < 0.5 * pad * dhat_;
}
bool SelfBarrier::covers(const VecX& z) const { return covers(cache_, z, kPad); }

// The pairs within (1 + kPad) d^ somewhere on the path (a subset of a search's boxes' that holds every
// one of them), filtered from wider candidates found along an earlier path, within kOuterPad d^ more (a
// Verlet list), while that path covers both ends of this one (then it covers every point between:
// offPath is convex along a path). Where it covers both ends but for a few strayed vertices, it still
// covers every point between for the others (the largest distance over them alone is convex too), and
// only the pairs with a strayed corner are searched for. The wider reach costs more pairs a search and
// pays only where its lists serve several paths (the folds, not the brush's bristles, swept far each
// step): after a list that served one path, searches are plain, and the wider reach is tried again
// every eighth.
void SelfBarrier::cover(const VecX& from, const VecX& sweep) const {
  const double reach = (1 + kPad) * dhat_;
  Candidates& list = wider_.list;
  const int strayed = list.valid ? markStrayed(list, from, sweep, 0.5 * kOuterPad * dhat_) : -1;
  if (strayed >= 0 && strayed <= kStrayedShare * static_cast<double>(primitives_.vertices.size())) {
    ++wider_.served;
    cache_.pairs = within(list.pairs, from, sweep, reach, strayed > 0);
    if (strayed > 0) {
      std::vector<Pair> found = strayedCandidates(reach), both(cache_.pairs.size() + found.size());
      std::sort(found.begin(), found.end(), inOrder);
      std::merge(cache_.pairs.begin(), cache_.pairs.end(), found.begin(), found.end(), both.begin(), inOrder);
      cache_.pairs.swap(both);
    }
  } else if (wider_.served >= 2 || ++wider_.plain % 8 == 0) {
    list.pairs = candidates(from, &sweep, reach + kOuterPad * dhat_);
    list.from = from;
    list.sweep = sweep;
    list.valid = true;
    wider_.served = 1;
    wider_.plain = 0;
    cache_.pairs = within(list.pairs, from, sweep, reach, false);
  } else {
    list.valid = false;
    cache_.pairs = candidates(from, &sweep, reach);
  }
  cache_.from = from;
  cache_.sweep = sweep;
  cache_.valid = true;
}

// Marks in strayed_ (per model vertex) the primitive vertices `limit` or more off the path at either end
// of the step from + [0, 1] sweep (NaN counts as strayed); returns how many.
int SelfBarrier::markStrayed(const Candidates& path, const VecX& from, const VecX& sweep, double limit) const {
  const std::vector<int>& vertices = primitives_.vertices;
  strayed_.assign(static_cast<size_t>(from.size() / 3), 0);
  int count = 0;
  const auto mark = [&](const VecX& end) {
    offPath(path, end);
    for (size_t i = 0; i < vertices.size(); ++i)
      if (!(off_path_[i] < limit * limit) && !strayed_[vertices[i]]) strayed_[vertices[i]] = 1, ++count;
  };
  mark(from);
  mark(from + sweep);
  return count;
}

bool SelfBarrier::hasStrayedCorner(const Pair& pair) const {
  const Eigen::Vector4i c = corners(pair);
  return strayed_[c[0]] || (c[1] >= 0 && strayed_[c[1]]) || strayed_[c[2]] || strayed_[c[3]];
}

// A pair the barrier counts: its primitives share no vertex, and it was not left out at the frame's start.
bool SelfBarrier::counted(const Pair& pair) const {
  const Eigen::Vector4i c = corners(pair);
  const bool shares = pair.kind == Kind::EdgeEdge ? (c[0] == c[2] || c[0] == c[3] || c[1] == c[2] || c[1] == c[3])
                                                  : (c[0] == c[1] || c[0] == c[2] || c[0] == c[3]);
  return !shares && !leftOutPair(pair);
}

// The pairs with a strayed corner (strayed_) whose boxes overlap on the path of the last sweptBoxes,
// each once, as candidates() would find them: each kind of primitive queried against a grid over the
// strayed ones of the other kind, skipping pairs whose first side has strayed too (found from it).
std::vector<SelfBarrier::Pair> SelfBarrier::strayedCandidates(double grow) const {
  const CollisionPrimitives& p = primitives_;
  const int nf = static_cast<int>(p.triangles.rows()), ne = static_cast<int>(edges_.rows());
  std::vector<char> triangle_strayed(static_cast<size_t>(nf)), edge_strayed(static_cast<size_t>(ne));
  std::vector<int> vertices, triangles, edges, segments, strand_vertices;  // those with a strayed corner
  std::vector<Aabb> vertex_boxes, triangle_boxes, edge_boxes, segment_boxes, strand_boxes;
  const auto strand_box = [&](int v) { return box(Eigen::Matrix<int, 1, 1>(v), vertex_boxes_, 0.5 * grow); };
  for (int v : p.vertices)
    if (strayed_[v]) vertices.push_back(v), vertex_boxes.push_back(vertex_boxes_[v]);
  for (int t = 0; t < nf; ++t)
    if ((triangle_strayed[t] = strayed_[p.triangles(t, 0)] || strayed_[p.triangles(t, 1)] || strayed_[p.triangles(t, 2)]))
      triangles.push_back(t), triangle_boxes.push_back(triangle_boxes_[t]);
  for (int e = 0; e < ne; ++e)
    if ((edge_strayed[e] = strayed_[edges_(e, 0)] || strayed_[edges_(e, 1)])) {
      edges.push_back(e), edge_boxes.push_back(edge_boxes_[e]);
      if (e >= first_segment_) segments.push_back(e), segment_boxes.push_back(edge_boxes_[e]);
    }
  for (int v : strand_vertices_)
    if (strayed_[v]) strand_vertices.push_back(v), strand_boxes.push_back(strand_box(v));
  const int nv = static_cast<int>(p.vertices.size()), ns = static_cast<int>(strand_vertices_.size());
  std::vector<Pair> out;
  const auto add = [&](const std::vector<Aabb>& listed, int n, const auto& box_of, const auto& make) {
    const std::vector<Pair> found =
        overlappingPairs(listed, n, kGrain, box_of, [&](int i, int j, Pair& pair) { return make(i, j, pair) && counted(pair); });
    out.insert(out.end(), found.begin(), found.end());
  };
  // A vertex and a strayed triangle; a strayed vertex and a triangle that has not.
  add(
      triangle_boxes, nv, [&](int i) { return vertex_boxes_[p.vertices[i]]; },
      [&](int i, int j, Pair& pair) {
        pair = {Kind::VertexTriangle, p.vertices[i], triangles[j]};
        return true;
      });
  add(
      vertex_boxes, nf, [&](int t) { return triangle_boxes_[t]; },
      [&](int t, int j, Pair& pair) {
        pair = {Kind::VertexTriangle, vertices[j], t};
        return !triangle_strayed[t];
      });
  // Two edges, one strayed at least: found from each strayed one, kept from the first.
  add(
      edge_boxes, ne, [&](int e) { return edge_boxes_[e]; },
      [&](int e, int j, Pair& pair) {
        const int f = edges[j];
        pair = {Kind::EdgeEdge, std::min(e, f), std::max(e, f)};
        return e != f && (!edge_strayed[e] || e < f);
      });
  // A strand vertex and a strayed segment; a strayed strand vertex and a segment that has not.
  add(
      segment_boxes, ns, [&](int i) { return strand_box(strand_vertices_[i]); },
      [&](int i, int j, Pair& pair) {
        pair = {Kind::VertexSegment, strand_vertices_[i], segments[j]};
        return true;
      });
  add(
      strand_boxes, ne - first_segment_, [&](int i) { return edge_boxes_[first_segment_ + i]; },
      [&](int i, int j, Pair& pair) {
        pair = {Kind::VertexSegment, strand_vertices[j], first_segment_ + i};
        return !edge_strayed[first_segment_ + i];
      });
  return out;
}

// Those of `pairs` whose boxes on the path overlap, compared as candidates() compares them; with
// `skip_strayed`, but those with a strayed corner.
std::vector<SelfBarrier::Pair> SelfBarrier::within(const std::vector<Pair>& pairs, const VecX& x, const VecX& sweep, double grow,
                                                   bool skip_strayed) const {
  sweptBoxes(x, &sweep, grow);
  const int n = static_cast<int>(pairs.size()), grain = 8 * kGrain, chunks = (n + grain - 1) / grain;  // a box test a pair: larger chunks
  std::vector<std::vector<Pair>> kept(static_cast<size_t>(chunks));
  parallelFor(chunks, 1, [&](int begin, int end) {
    for (int chunk = begin; chunk < end; ++chunk)
      for (int i = chunk * grain; i < std::min(n, (chunk + 1) * grain); ++i) {
        const Pair& pair = pairs[i];
        bool overlapping;
        if (pair.kind == Kind::VertexTriangle)
          overlapping = overlap(triangle_boxes_[pair.b], vertex_boxes_[pair.a]);
        else if (pair.kind == Kind::EdgeEdge)
          overlapping = overlap(edge_boxes_[pair.b], edge_boxes_[pair.a]);
        else
          overlapping = overlap(edge_boxes_[pair.b], box(Eigen::Matrix<int, 1, 1>(pair.a), vertex_boxes_, 0.5 * grow));
        if (overlapping && !leftOutPair(pair) && !(skip_strayed && hasStrayedCorner(pair))) kept[chunk].push_back(pair);
      }
  });
  std::vector<Pair> out;
  for (const auto& k : kept) out.insert(out.end(), k.begin(), k.end());
  return out;
}

const std::vector<SelfBarrier::Pair>& SelfBarrier::near(const VecX& x) const {
  if (!covers(x)) cover(x, VecX::Zero(x.size()));
  return cache_.pairs;
}

}  // namespace qnsim
