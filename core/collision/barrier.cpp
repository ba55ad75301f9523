#include "core/collision/barrier.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

#include "core/collision/ccd.h"
#include "core/collision/self_barrier.h"
#include "core/common/parallel.h"

namespace qnsim {
namespace {

constexpr int kGrain = 256;  // vertices per parallel chunk
// A pair closer than this fraction of d^ is too close: kappa doubles (adapt), and no frame starts with
// one (closeDistance).
constexpr double kCloseFraction = 1e-2;
// No trial moves a vertex farther than this many d^ (the scene's size at the default d^): a step
// that the barrier's steep gradient, through A^-1, blew up to many times the scene would otherwise
// sweep every pair into collision detection's candidates (the brush's bristles: 1-3 m a step).
constexpr double kLongestMove = 1000;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Where a vertex met by collider `end` at fraction t of the frame, at point p, ends the frame when it
// rides with it: its place in the collider's frame at t, moved by the rest of its own motion towards
// `target` less the part into the collider's surface, carried to the collider's pose at the frame's end.
// With friction mu > 0 its motion along the surface is shortened by mu times the part into it, down to
// none (position-based Coulomb friction, as position-based dynamics takes it).
Vec3 ridden(const Collider& end, double h, double t, const Vec3& p, const Vec3& target, double mu) {
  const Collider then = posedWithinFrame(end, h, t);
  const Vec3 local = then.rotation.transpose() * (p - then.position);
  const Vec3 normal = then.rotation.transpose() * closestSurfacePoint(then, p).normal;
  Vec3 slide = end.rotation.transpose() * (target - end.position) - local;
  const double into = std::min(0.0, slide.dot(normal));
  slide -= into * normal;
  const Vec3 along = slide - slide.dot(normal) * normal;
  if (mu > 0 && along.norm() > 0) slide -= std::min(1.0, -mu * into / along.norm()) * along;
  return end.position + end.rotation * (local + slide);
}

// How far a point of collider c's surface moves in a second at most: its translation, and its
// rotation at the bounding radius (mayReach tests the shape at its pose at the end of the frame).
double colliderSweep(const Collider& c) {
  const double turn = c.angular_velocity.norm();
  return c.velocity.norm() + (turn > 0 ? turn * boundingRadius(c) : 0.0);
}

// Whether p lies within `reach` of the collider's bounding sphere: the collision detection's cull
// before mayReach, which would let through points that can stop the march where this does not.
bool inBall(const Collider& c, const Vec3& p, double reach) {
  const double r = boundingRadius(c) + reach;
  return !std::isfinite(r) || (p - c.position).squaredNorm() <= r * r;
}

// The closest point of collider c's surface to p when p is within d^ of it and outside it.
bool inReach(const Collider& c, const Vec3& p, double dhat, SurfacePoint& s) {
  if (!mayReach(c, p, dhat)) return false;
  s = closestSurfacePoint(c, p);
  return s.distance > 0 && s.distance < dhat;
}

}  // namespace

double barrier(double d, double dhat) {
  if (d <= 0) return kInfinity;
  if (d >= dhat) return 0;
  return -(d - dhat) * (d - dhat) * std::log(d / dhat);
}

double barrierDerivative(double d, double dhat) {
  if (d <= 0) return -kInfinity;
  if (d >= dhat) return 0;
  return -2 * (d - dhat) * std::log(d / dhat) - (d - dhat) * (d - dhat) / d;
}

double barrierSecondDerivative(double d, double dhat) {
  if (d <= 0) return kInfinity;
  if (d >= dhat) return 0;
  const double r = (d - dhat) / d;
  return -2 * std::log(d / dhat) - 4 * r + r * r;
}

ContactBarrier::ContactBarrier(double dhat, double mean_mass, double time_step, double gravity)
    : dhat_(dhat),
      min_stiffness_(mean_mass * (dhat / (time_step * time_step) + gravity) / -barrierDerivative(0.1 * dhat, dhat)),
      stiffness_(min_stiffness_) {}

double ContactBarrier::closeDistance() const { return kCloseFraction * dhat_; }

void ContactBarrier::beginFrame(const std::vector<Collider>& colliders, const SelfBarrier* self) {
  colliders_ = &colliders;
  self_ = self;
  stiffness_ = min_stiffness_;
  last_min_distance_ = kInfinity;
}

double ContactBarrier::energy(const VecX& x, VecX* gradient) const {
  const double self = self_ ? self_->energy(x, stiffness_, gradient) : 0.0;
  return self + collidersEnergy(x, gradient);
}

double ContactBarrier::collidersEnergy(const VecX& x, VecX* gradient) const {
  if (!colliders_ || colliders_->empty()) return 0;
  const int n = static_cast<int>(x.size() / 3), chunks = (n + kGrain - 1) / kGrain;
  std::vector<double> sums(chunks, 0.0);
  parallelFor(chunks, 1, [&](int begin, int end) {
    for (int chunk = begin; chunk < end; ++chunk)
      for (int v = chunk * kGrain; v < std::min(n, (chunk + 1) * kGrain); ++v) {
        const Vec3 p = vertex(x, v);
        for (const Collider& c : *colliders_) {
          if (!mayReach(c, p, dhat_)) continue;
          const SurfacePoint s = closestSurfacePoint(c, p);
          if (s.distance >= dhat_) continue;
          sums[chunk] += stiffness_ * barrier(s.distance, dhat_);
          if (gradient && s.distance > 0) vertex(*gradient, v) += stiffness_ * barrierDerivative(s.distance, dhat_) * s.normal;
        }
      }
  });
  double total = 0;
  for (double s : sums) total += s;  // in chunk order: the same bits on any thread count
  return total;
}

double ContactBarrier::stepBound(const VecX& x, const VecX& d, double max_alpha) const {
  double largest = 0;
  for (int v = 0; v < d.size() / 3; ++v) largest = std::max(largest, vertex(d, v).squaredNorm());
  largest = std::sqrt(largest);
  if (max_alpha * largest > kLongestMove * dhat_) max_alpha = kLongestMove * dhat_ / largest;
  if (self_) max_alpha = self_->stepBound(x, d, max_alpha);
  return collidersStepBound(x, d, max_alpha);
}

double ContactBarrier::collidersStepBound(const VecX& x, const VecX& d, double max_alpha) const {
  if (!colliders_ || colliders_->empty() || max_alpha <= 0) return max_alpha;
  const int n = static_cast<int>(x.size() / 3), chunks = (n + kGrain - 1) / kGrain;
  std::vector<double> bounds(chunks, max_alpha);
  parallelFor(chunks, 1, [&](int begin, int end) {
    CcdOptions options;
    for (int chunk = begin; chunk < end; ++chunk)
      for (int v = chunk * kGrain; v < std::min(n, (chunk + 1) * kGrain); ++v) {
        const Vec3 p = vertex(x, v), dp = vertex(d, v);
        for (const Collider& c : *colliders_) {
          // Only what the step can bring into contact (within reach of the collider's bounding sphere)
          // and what could stop the march short.
          options.max_time = bounds[chunk];
          if (!inBall(c, p, max_alpha * dp.norm() + dhat_) || !mayReach(c, p, ccdCullDistance(options.max_time * dp.norm(), options)))
            continue;
          bounds[chunk] = std::min(bounds[chunk], pointColliderCcd(p, dp, c, options));
        }
      }
  });
  return *std::min_element(bounds.begin(), bounds.end());
}

void ContactBarrier::normalStiffness(const VecX& x, std::vector<NormalStiffness>& out) const {
  out.clear();
  const int n = static_cast<int>(x.size() / 3);
  blocks_.resize(n, Mat3::Zero());
  std::vector<int> touched;
  SurfacePoint s;
  if (colliders_)
    for (int v = 0; v < n; ++v)
      for (const Collider& c : *colliders_) {
        if (!inReach(c, vertex(x, v), dhat_, s)) continue;
        const double k = stiffness_ * barrierSecondDerivative(s.distance, dhat_);
        if (!(k > 0)) continue;
        if (blocks_[v].isZero()) touched.push_back(v);
        blocks_[v] += k * s.normal * s.normal.transpose();
      }
  if (self_) self_->addCurvature(x, stiffness_, blocks_, touched);
  std::sort(touched.begin(), touched.end());
  for (int v : touched) {
    const Eigen::SelfAdjointEigenSolver<Mat3> eigen(blocks_[v]);
    const Vec3& k = eigen.eigenvalues();  // increasing
    for (int i = 2; i >= 0; --i)
      if (k[i] > 1e-12 * k[2]) out.push_back({v, eigen.eigenvectors().col(i), k[i]});
    blocks_[v].setZero();
  }
}

bool ContactBarrier::filterDirection(const VecX& x, const VecX& d, double cut_below, VecX& filtered) const {
  if (!colliders_) return false;
  if (cut_below > 0 && collidersStepBound(x, d, cut_below) >= cut_below) return false;
  bool changed = false;
  for (int v = 0; v < x.size() / 3; ++v)
    for (const Collider& c : *colliders_) {
      const Vec3 p = vertex(x, v);
      if (!mayReach(c, p, dhat_)) continue;
      const SurfacePoint s = closestSurfacePoint(c, p);
      if (s.distance >= dhat_) continue;
      const double inward = (changed ? Vec3(vertex(filtered, v)) : Vec3(vertex(d, v))).dot(s.normal);
      if (!(inward < 0)) continue;
      if (!changed) filtered = d, changed = true;
      vertex(filtered, v) -= inward * s.normal;
    }
  return changed;
}

VecX ContactBarrier::sweptStart(const VecX& from, const VecX& guess, double time_step, double friction) const {
  return colliders_ ? sweep(*colliders_, from, guess, time_step, friction) : guess;
}

VecX ContactBarrier::sweep(const std::vector<Collider>& colliders, const VecX& from, const VecX& guess, double time_step,
                           double friction) const {
  VecX x = guess;
  if (colliders.empty()) return x;
  parallelFor(static_cast<int>(x.size() / 3), kGrain, [&](int begin, int end) {
    CcdOptions options;
    options.min_distance = 0.5 * dhat_;  // the march stops short of d^/2
    for (int v = begin; v < end; ++v) {
      const Vec3 p = vertex(from, v), dp = vertex(guess, v) - p;
      const Collider* met = nullptr;
      double when = 1.0;
      for (const Collider& c : colliders) {
        if (!inBall(c, p, dp.norm() + time_step * c.velocity.norm() + dhat_)) continue;
        options.max_time = when;
        const double surface_motion = time_step * colliderSweep(c);  // over the frame
        if (!mayReach(c, p, surface_motion + ccdCullDistance(when * (dp.norm() + surface_motion), options))) continue;
        const double t = pointMovingColliderCcd(p, dp, c, time_step, options);
        if (t < when) when = t, met = &c;
      }
      if (met) vertex(x, v) = ridden(*met, time_step, when, p + when * dp, vertex(guess, v), friction);
    }
  });
  return x;
}

double ContactBarrier::limitMoves(const VecX& from, VecX& to, double friction) const {
  to = sweptStart(from, to, 0.0, friction);
  VecX d = to - from;
  const int n = static_cast<int>(d.size() / 3), chunks = (n + kGrain - 1) / kGrain;
  std::vector<double> kept(static_cast<size_t>(chunks), 1.0);
  if (colliders_ && !colliders_->empty())
    parallelFor(chunks, 1, [&](int begin, int end) {
      for (int chunk = begin; chunk < end; ++chunk)
        for (int v = chunk * kGrain; v < std::min(n, (chunk + 1) * kGrain); ++v) {
          const Vec3 p = vertex(from, v), dp = vertex(d, v);
          double t = 1.0;
          for (const Collider& c : *colliders_) {
            if (!inBall(c, p, dp.norm() + dhat_) || !mayReach(c, p, ccdCullDistance(dp.norm(), CcdOptions{}))) continue;
            const double reach = pointColliderCcd(p, dp, c);  // 0 also for a point inside, which cannot be helped
            if (reach < t && (reach > 0 || closestSurfacePoint(c, p).distance > 0)) t = reach;
          }
          vertex(d, v) *= t;
          kept[chunk] = std::min(kept[chunk], t);
        }
    });
  double smallest = kept.empty() ? 1.0 : *std::min_element(kept.begin(), kept.end());
  if (self_) smallest = std::min(smallest, self_->limitMoves(from, d, 0.5 * closeDistance()));
  to = from + d;
  return smallest;
}

int ContactBarrier::feasibleStart(VecX& x, const VecX& x_n, double time_step) const {
  const VecX unmoved = self_ ? x : VecX();
  int moved = 0;
  for (const Collider& c : *colliders_) {
    const Collider start = posedWithinFrame(c, time_step, 0.0);
    for (int v = 0; v < x.size() / 3; ++v) {
      const Vec3 p = vertex(x, v);
      if (!mayReach(c, p, dhat_)) continue;
      const SurfacePoint s = closestSurfacePoint(c, p);
      if (s.distance >= 0.5 * dhat_) continue;
      SurfacePoint before;
      const double clearance =
          inReach(start, vertex(x_n, v), dhat_, before) ? std::clamp(before.distance, closeDistance(), 0.5 * dhat_) : 0.5 * dhat_;
      if (s.distance >= clearance) continue;
      vertex(x, v) = s.point + clearance * s.normal;
      ++moved;
    }
  }
  if (self_ && moved > 0) keepSurfacesApart(unmoved, x);
  return moved;
}

// The moves from `before` to x cut where they would take a surface through another (a vertex taken out
// along a collider's normal through the body's own surface above it); vertices whose moves are not cut
// keep their x to the bit.
void ContactBarrier::keepSurfacesApart(const VecX& before, VecX& x) const {
  VecX d = x - before;
  const VecX wanted = d;
  self_->limitMoves(before, d, 0.5 * closeDistance());
  for (Eigen::Index v = 0; v < x.size() / 3; ++v)
    if (vertex(d, v) != vertex(wanted, v)) vertex(x, v) = vertex(before, v) + vertex(d, v);
}

void ContactBarrier::frictionTerms(const VecX& x_n, double last_kappa, double coefficient, double slip, double time_step,
                                   std::vector<FrictionTerm>& out) const {
  out.clear();
  if (!colliders_ || coefficient <= 0) return;
  for (const Collider& end : *colliders_) {
    const Collider start = posedWithinFrame(end, time_step, 0.0);
    const Mat3 turn = end.rotation * start.rotation.transpose();  // the collider's rotation over the frame
    SurfacePoint s;
    for (int v = 0; v < x_n.size() / 3; ++v) {
      const Vec3 p = vertex(x_n, v);
      if (!inReach(start, p, dhat_, s)) continue;
      const double normal_force = -last_kappa * barrierDerivative(s.distance, dhat_);
      out.push_back({v, end.position + turn * (p - start.position), turn * s.normal, coefficient * normal_force, slip});
    }
  }
}

bool ContactBarrier::adapt(const VecX& x) {
  const double closest = stats(x).min_distance;
  const bool tighten = closest > 0 && closest < kCloseFraction * dhat_ && closest < last_min_distance_ && stiffness_ < 1e4 * min_stiffness_;
  if (closest > 0) last_min_distance_ = closest;
  if (tighten) stiffness_ *= 2;
  return tighten;
}

BarrierStats ContactBarrier::stats(const VecX& x) const {
  BarrierStats stats = self_ ? self_->stats(x) : BarrierStats{};
  if (!colliders_) return stats;
  for (int v = 0; v < x.size() / 3; ++v)
    for (const Collider& c : *colliders_) {
      if (!mayReach(c, vertex(x, v), dhat_)) continue;
      const double distance = closestSurfacePoint(c, vertex(x, v)).distance;
      if (distance < dhat_) stats.add(distance);
    }
  return stats;
}

}  // namespace qnsim
