#include "core/collision/self_barrier.h"

#include <algorithm>
#include <cmath>

#include "core/collision/ccd.h"
#include "core/common/parallel.h"
#include "core/math/proximity.h"

namespace qnsim {
namespace {

constexpr double kMollifier = 1e-3;  // IPC's eps_x factor
constexpr double kTouching = 1e-9;   // m: CcdOptions::min_distance, what collision detection counts as contact
// What stepBound with a clearance keeps of the distance of a pair closer than the clearance already.
constexpr double kCloserKept = 0.9;
// Gauss-Seidel sweeps of withoutApproach over the pairs.
constexpr int kApproachSweeps = 4;
// Rounds of limitMoves that cut meeting pairs' moves to their time of impact before it stops them.
constexpr int kCutRounds = 8;

Vec3 at(const VecX& x, int v) { return vertex(x, v); }

// Whether a pair's two primitives (the first `First` points: a vertex or an edge's two ends; the rest: a
// triangle or an edge) are at least `reach` apart along one axis: then their distance is at least
// `reach`, and the distance itself need not be measured: a saving where many candidates are that far
// apart (the brush's bristles), a small overhead where their boxes overlap (docs/contact.md).
template <int First>
bool boxesApart(const std::array<Vec3, 4>& p, double reach) {
  for (int axis = 0; axis < 3; ++axis) {
    double low_a = p[0][axis], high_a = low_a, low_b = p[First][axis], high_b = low_b;
    for (int k = 1; k < First; ++k) low_a = std::min(low_a, p[k][axis]), high_a = std::max(high_a, p[k][axis]);
    for (int k = First + 1; k < 4; ++k) low_b = std::min(low_b, p[k][axis]), high_b = std::max(high_b, p[k][axis]);
    if (low_b - high_a >= reach || low_a - high_b >= reach) return true;
  }
  return false;
}

// IPC's mollifier m(c) and dm/dc (self_barrier.h).
double mollifier(double c, double eps) { return c < eps ? (2.0 - c / eps) * c / eps : 1.0; }
double mollifierSlope(double c, double eps) { return c < eps ? 2.0 / eps - 2.0 * c / (eps * eps) : 0.0; }

}  // namespace

SelfBarrier::SelfBarrier(const CollisionPrimitives& primitives) : primitives_(primitives) {
  const EdgeIndices surface = triangleEdges(primitives);
  first_segment_ = static_cast<int>(surface.rows());
  edges_.resize(surface.rows() + primitives.segments.rows(), 2);
  edges_ << surface, primitives.segments;
  strand_vertices_.assign(primitives.segments.data(), primitives.segments.data() + primitives.segments.size());
  std::sort(strand_vertices_.begin(), strand_vertices_.end());
  strand_vertices_.erase(std::unique(strand_vertices_.begin(), strand_vertices_.end()), strand_vertices_.end());
  rest_length2_.resize(static_cast<size_t>(edges_.rows()));
  for (Eigen::Index e = 0; e < edges_.rows(); ++e)
    rest_length2_[static_cast<size_t>(e)] = (at(primitives.rest, edges_(e, 1)) - at(primitives.rest, edges_(e, 0))).squaredNorm();
}

Eigen::Vector4i SelfBarrier::corners(const Pair& pair) const {
  switch (pair.kind) {
    case Kind::EdgeEdge:
      return {edges_(pair.a, 0), edges_(pair.a, 1), edges_(pair.b, 0), edges_(pair.b, 1)};
    case Kind::VertexSegment:
      return {pair.a, -1, edges_(pair.b, 0), edges_(pair.b, 1)};
    default:
      return {pair.a, primitives_.triangles(pair.b, 0), primitives_.triangles(pair.b, 1), primitives_.triangles(pair.b, 2)};
  }
}

double SelfBarrier::mollifierEps(const Pair& pair) const { return kMollifier * rest_length2_[pair.a] * rest_length2_[pair.b]; }

bool SelfBarrier::mollified(const Pair& pair, const VecX& x) const {
  const std::array<Vec3, 4> p = points(pair, x);
  return (p[1] - p[0]).cross(p[3] - p[2]).squaredNorm() < mollifierEps(pair);
}

std::array<Vec3, 4> SelfBarrier::points(const Pair& pair, const VecX& x) const {
  const Eigen::Vector4i c = corners(pair);
  return {at(x, c[0]), at(x, c[1] >= 0 ? c[1] : c[0]), at(x, c[2]), at(x, c[3])};
}

// The distance of a pair's points, and its gradient w.r.t. them (none on a vertex-segment pair's second).
double SelfBarrier::pairDistance(const Pair& pair, const std::array<Vec3, 4>& p, Vec12* gradient) const {
  if (pair.kind == Kind::VertexTriangle) return pointTriangleDistance(p[0], p[1], p[2], p[3], gradient);
  return segmentDistance(p[0], p[1], p[2], p[3], gradient);  // (p, p) gives s = 0: nothing on the second
}

bool SelfBarrier::mayBeWithin(const Pair& pair, const std::array<Vec3, 4>& p, double reach) const {
  return pair.kind == Kind::VertexTriangle ? !boxesApart<1>(p, reach) : !boxesApart<2>(p, reach);
}

double SelfBarrier::distance(const Pair& pair, const VecX& x) const { return pairDistance(pair, points(pair, x)); }

// kappa m b(d) of one pair (m = 1 but for two edges), and its gradient w.r.t. its points.
double SelfBarrier::term(const Pair& pair, const VecX& x, double kappa, Vec12* gradient) const {
  const std::array<Vec3, 4> points = this->points(pair, x);
  if (!mayBeWithin(pair, points, dhat_)) return 0.0;
  const Vec3 &p0 = points[0], &p1 = points[1], &q0 = points[2], &q1 = points[3];
  Vec12 grad_d;
  const double d = pairDistance(pair, points, &grad_d);
  if (d >= dhat_) return 0.0;
  const double b = barrier(d, dhat_);
  if (pair.kind != Kind::EdgeEdge) {
    if (gradient) *gradient = kappa * barrierDerivative(d, dhat_) * grad_d;
    return kappa * b;
  }
  const Vec3 u = p1 - p0, v = q1 - q0, w = u.cross(v);
  const double eps = mollifierEps(pair), cross2 = w.squaredNorm();
  const double m = mollifier(cross2, eps);
  if (gradient) {
    Vec12 grad_c;  // of |u x v|^2: 2 v x w for u, 2 w x u for v
    const Vec3 du = 2 * v.cross(w), dv = 2 * w.cross(u);
    grad_c << -du, du, -dv, dv;
    *gradient = kappa * (m * barrierDerivative(d, dhat_) * grad_d + b * mollifierSlope(cross2, eps) * grad_c);
  }
  return kappa * m * b;
}

VecX SelfBarrier::withoutMeanMotion(VecX displacement) const {
  const std::vector<int>& vertices = primitives_.vertices;
  if (vertices.empty()) return displacement;
  Vec3 mean = Vec3::Zero();
  for (int v : vertices) mean += at(displacement, v);
  mean /= static_cast<double>(vertices.size());
  for (int v : vertices) vertex(displacement, v) -= mean;
  return displacement;
}

void SelfBarrier::beginFrame(const VecX& start, double dhat) {
  // The wider candidates hold on into this frame unless they were found without pairs left out then.
  if (dhat != dhat_ || !touching_.empty()) wider_.list.valid = false;
  dhat_ = dhat;
  cache_.valid = false;
  touching_.clear();
  near(start);  // the start's candidates, kept for the first evaluations
  std::vector<Pair>& pairs = cache_.pairs;
  for (const Pair& pair : pairs)
    if (distance(pair, start) <= kTouching) touching_.emplace_back(pair.kind, pair.a, pair.b);
  std::sort(touching_.begin(), touching_.end());
  if (!touching_.empty()) pairs.erase(std::remove_if(pairs.begin(), pairs.end(), [&](const Pair& p) { return leftOutPair(p); }), pairs.end());
}

bool SelfBarrier::leftOutPair(const Pair& pair) const {
  return !touching_.empty() && std::binary_search(touching_.begin(), touching_.end(), std::make_tuple(pair.kind, pair.a, pair.b));
}

double SelfBarrier::energy(const VecX& x, double kappa, VecX* gradient) const {
  const std::vector<Pair>& pairs = near(x);
  const int n = static_cast<int>(pairs.size());
  std::vector<double> values(static_cast<size_t>(n));
  std::vector<Vec12> gradients(gradient ? static_cast<size_t>(n) : 0);
  parallelFor(n, 64, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) values[i] = term(pairs[i], x, kappa, gradient ? &gradients[i] : nullptr);
  });
  double total = 0;
  for (int i = 0; i < n; ++i) {  // in pair order: the same bits on any thread count
    total += values[i];
    if (!gradient || values[i] == 0.0) continue;
    const Eigen::Vector4i c = corners(pairs[i]);
    for (int k = 0; k < 4; ++k)
      if (c[k] >= 0) vertex(*gradient, c[k]) += gradients[i].segment<3>(3 * k);
  }
  return total;
}

// A pair can meet on the step only if it is a candidate of a path that covers the step's two ends
// (then it covers every point between: the distance to a segment is convex), so the candidates are
// found along the step itself when the last ones do not, and serve the line search's trials after.
double SelfBarrier::impact(const Pair& pair, const VecX& x, const VecX& sweep, const CcdOptions& options) const {
  const std::array<Vec3, 4> p = points(pair, x), dp = points(pair, sweep);
  return pair.kind == Kind::VertexTriangle ? pointTriangleCcd(p[0], p[1], p[2], p[3], dp[0], dp[1], dp[2], dp[3], options)
                                           : edgeEdgeCcd(p[0], p[1], p[2], p[3], dp[0], dp[1], dp[2], dp[3], options);
}

double SelfBarrier::stepBound(const VecX& x, const VecX& d, double max_alpha, double clearance) const {
  const VecX sweep = withoutMeanMotion(max_alpha * d);  // a common translation brings no pair closer
  if (!covers(x) || !covers(x + sweep)) cover(x, sweep);
  const std::vector<Pair>& pairs = cache_.pairs;
  const int n = static_cast<int>(pairs.size()), chunks = (n + kGrain - 1) / kGrain;
  std::vector<double> bounds(static_cast<size_t>(chunks), 1.0);
  parallelFor(chunks, 1, [&](int begin, int end) {
    CcdOptions options;
    const double floor = options.min_distance;
    for (int chunk = begin; chunk < end; ++chunk)
      for (int i = chunk * kGrain; i < std::min(n, (chunk + 1) * kGrain); ++i) {
        options.max_time = bounds[chunk];
        if (clearance > 0) {  // the pair's distance matters only below clearance / kCloserKept (1 % spare for round-off)
          const std::array<Vec3, 4> p = points(pairs[i], x);
          const bool close = mayBeWithin(pairs[i], p, 1.01 * clearance / kCloserKept);
          options.min_distance = std::max(floor, close ? std::min(clearance, kCloserKept * pairDistance(pairs[i], p)) : clearance);
        }
        bounds[chunk] = std::min(bounds[chunk], impact(pairs[i], x, sweep, options));
      }
  });
  const double t = bounds.empty() ? 1.0 : *std::min_element(bounds.begin(), bounds.end());
  return t * max_alpha;
}

double SelfBarrier::limitMoves(const VecX& x, VecX& d, double clearance) const {
  const int n = static_cast<int>(x.size() / 3);
  CcdOptions options;
  options.min_distance = std::max(options.min_distance, clearance);
  std::vector<double> kept(static_cast<size_t>(n), 1.0), cut(static_cast<size_t>(n));
  const auto moving = [&](int v) { return v >= 0 && !vertex(d, v).isZero(); };
  for (int round = 0;; ++round) {
    const VecX sweep = withoutMeanMotion(d);  // a common translation brings no pair closer
    const std::vector<Pair> pairs = candidates(x, &sweep, options.min_distance);
    const int count = static_cast<int>(pairs.size());
    std::vector<double> impacts(static_cast<size_t>(count), 1.0);
    parallelFor(count, kGrain, [&](int begin, int end) {
      for (int i = begin; i < end; ++i) {
        const Eigen::Vector4i c = corners(pairs[i]);
        if (moving(c[0]) || moving(c[1]) || moving(c[2]) || moving(c[3])) impacts[i] = impact(pairs[i], x, sweep, options);
      }
    });
    std::fill(cut.begin(), cut.end(), 1.0);
    bool met = false;
    for (int i = 0; i < count; ++i) {  // in pair order: the same bits on any thread count
      if (impacts[i] >= 1.0) continue;
      met = true;
      const Eigen::Vector4i c = corners(pairs[i]);
      for (int k = 0; k < 4; ++k)
        if (c[k] >= 0) cut[c[k]] = std::min(cut[c[k]], round < kCutRounds ? impacts[i] : 0.0);
    }
    if (!met) break;
    for (int v = 0; v < n; ++v)
      if (cut[v] < 1.0) vertex(d, v) *= cut[v], kept[v] *= cut[v];
  }
  return n > 0 ? *std::min_element(kept.begin(), kept.end()) : 1.0;
}

VecX SelfBarrier::separation(const VecX& x, double target) const {
  VecX push = VecX::Zero(x.size());
  for (const Pair& pair : near(x)) {
    const std::array<Vec3, 4> p = points(pair, x);
    if (!mayBeWithin(pair, p, target)) continue;
    Vec12 grad_d;
    const double d = pairDistance(pair, p, &grad_d);
    if (!(d < target) || grad_d.squaredNorm() == 0) continue;
    const Eigen::Vector4i c = corners(pair);
    for (int k = 0; k < 4; ++k)
      if (c[k] >= 0) vertex(push, c[k]) += (target - d) / grad_d.squaredNorm() * grad_d.segment<3>(3 * k);
  }
  return push;
}

// Each corner k of a pair moves its part g_k of grad d: the corners on the other side of the pair from
// k are those whose part points against g_k, and |g_j| over their sum are the barycentric weights of
// that side's closest point (a triangle's b_j, an edge's 1 - s and s).
std::vector<SelfBarrier::Touch> SelfBarrier::touches(const VecX& x, const VecX& v, double kappa) const {
  std::vector<Vec3> force(static_cast<size_t>(x.size() / 3), Vec3::Zero()), velocity = force;
  std::vector<double> weight(force.size(), 0.0);
  for (const Pair& pair : near(x)) {
    Vec12 gradient, grad_d;
    if (term(pair, x, kappa, &gradient) == 0.0) continue;
    pairDistance(pair, points(pair, x), &grad_d);
    const Eigen::Vector4i c = corners(pair);
    for (int k = 0; k < 4; ++k) {
      const Vec3 g_k = grad_d.segment<3>(3 * k), f_k = -gradient.segment<3>(3 * k);
      if (c[k] < 0 || g_k.squaredNorm() == 0) continue;
      Vec3 other = Vec3::Zero();
      double total = 0;
      for (int j = 0; j < 4; ++j) {
        const Vec3 g_j = grad_d.segment<3>(3 * j);
        if (c[j] < 0 || g_j.dot(g_k) >= 0) continue;
        other += g_j.norm() * at(v, c[j]);
        total += g_j.norm();
      }
      if (total == 0) continue;
      force[c[k]] += f_k;
      velocity[c[k]] += f_k.norm() / total * other;
      weight[c[k]] += f_k.norm();
    }
  }
  std::vector<Touch> out;
  for (int i = 0; i < static_cast<int>(force.size()); ++i)
    if (weight[i] > 0) out.push_back({i, force[i], velocity[i] / weight[i]});
  return out;
}

VecX SelfBarrier::withoutApproach(const VecX& x, VecX d, const VecX& mobility) const {
  std::vector<std::pair<Pair, Vec12>> resting;  // the pairs within d^, with their grad d
  for (const Pair& pair : near(x)) {
    const std::array<Vec3, 4> p = points(pair, x);
    Vec12 grad_d;
    if (!mayBeWithin(pair, p, dhat_) || !(pairDistance(pair, p, &grad_d) < dhat_)) continue;
    const Eigen::Vector4i c = corners(pair);
    bool inside = true;  // the closest points inside both primitives: every corner moves d
    for (int k = 0; k < 4; ++k) inside = inside && (c[k] < 0 || grad_d.segment<3>(3 * k).squaredNorm() > 0);
    if (inside && (pair.kind != Kind::EdgeEdge || !mollified(pair, x))) resting.emplace_back(pair, grad_d);
  }
  for (int sweep = 0; sweep < kApproachSweeps; ++sweep)
    for (const auto& [pair, grad_d] : resting) {
      const Eigen::Vector4i c = corners(pair);
      double rate = 0, weight = 0;
      for (int k = 0; k < 4; ++k)
        if (c[k] >= 0) {
          rate += grad_d.segment<3>(3 * k).dot(vertex(d, c[k]));
          weight += mobility[c[k]] * grad_d.segment<3>(3 * k).squaredNorm();
        }
      if (!(rate < 0 && weight > 0)) continue;
      for (int k = 0; k < 4; ++k)
        if (c[k] >= 0) vertex(d, c[k]) -= rate / weight * mobility[c[k]] * grad_d.segment<3>(3 * k);
    }
  return d;
}

void SelfBarrier::addCurvature(const VecX& x, double kappa, std::vector<Mat3>& blocks, std::vector<int>& touched) const {
  for (const Pair& pair : near(x)) {
    const Eigen::Vector4i c = corners(pair);
    const std::array<Vec3, 4> p = points(pair, x);
    if (!mayBeWithin(pair, p, dhat_)) continue;
    Vec12 grad_d;
    const double d = pairDistance(pair, p, &grad_d);
    if (!(d > 0 && d < dhat_)) continue;
    double k = kappa * barrierSecondDerivative(d, dhat_);
    if (pair.kind == Kind::EdgeEdge)
      k *= mollifier((p[1] - p[0]).cross(p[3] - p[2]).squaredNorm(), mollifierEps(pair));
    for (int i = 0; i < 4; ++i) {
      const Vec3 g = grad_d.segment<3>(3 * i);
      if (c[i] < 0 || !(k * g.squaredNorm() > 0)) continue;
      if (blocks[c[i]].isZero()) touched.push_back(c[i]);
      blocks[c[i]] += k * g * g.transpose();
    }
  }
}

BarrierStats SelfBarrier::stats(const VecX& x) const {
  BarrierStats s;
  for (const Pair& pair : near(x)) {
    const std::array<Vec3, 4> p = points(pair, x);
    if (!mayBeWithin(pair, p, dhat_)) continue;
    const double d = pairDistance(pair, p);
    if (d < dhat_) s.add(d);
  }
  return s;
}

}  // namespace qnsim
