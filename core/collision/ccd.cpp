#include "core/collision/ccd.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/collision/collider.h"
#include "core/math/proximity.h"

namespace qnsim {
namespace {

// The pair at time t: the distance of its closest points and the unit vector between them (from the
// second primitive's towards the first's; zero where they touch).
struct Probe {
  double distance;
  Vec3 normal;
};

// The march (see ccd.h) on the pair's distance at t, probe(t), with rate bound `speed`, on d - xi so
// that distances below xi count as contact whatever their round-off. From each time t reached it
// advances by the additive step, or to `separated(t, probe(t), margin)` when that is later: a time up
// to which the pair is known to stay more than `margin` apart (t itself when nothing more is known).
// The probe at each time reached serves both, so each step finds the closest points once.
template <class ProbeAt, class Separated>
double march(ProbeAt probe, Separated separated, double speed, const CcdOptions& opts) {
  if (!(speed > 0)) return opts.max_time;  // no relative motion
  const double xi = opts.min_distance;
  Probe here = probe(0.0);
  double d = here.distance - xi;
  if (!(d > 0)) return 0.0;
  // The first step leaves twice the gap of a head-on approach, so that round-off at the gap cannot
  // end the march at t = 0.
  const double gap = (1.0 - opts.rescale) * d;
  double t = 0.0, step = (1.0 - 2.0 * (1.0 - opts.rescale)) * d / speed;
  for (int k = 0; k < opts.max_steps; ++k) {
    const double next = std::min(t + step, opts.max_time);
    const double apart = std::min(separated(t, here, xi + gap), opts.max_time);  // at least gap above xi until then
    if (apart >= next) {
      t = apart;
      if (t >= opts.max_time) return opts.max_time;
      here = probe(t);
      step = opts.rescale * (here.distance - xi) / speed;
      continue;
    }
    here = probe(next);
    d = here.distance - xi;
    if (d < gap) return std::max(t, apart);  // reached within the gap: t is safe, and `next` was too
    t = next;
    if (t >= opts.max_time) return opts.max_time;
    step = opts.rescale * d / speed;
  }
  return t;
}

const auto kNothingKnown = [](double t, const Probe&, double) { return t; };

// The separating plane's bound (ccd.h): A's points a + t da lie on one side of the plane through the
// pair's closest points at time t0, with unit normal n, B's on the other; A's farthest and B's
// nearest along n stay more than `margin` apart until one of the (linear) differences n . (b_j - a_i)
// falls to it. No contact before that time: the plane still separates the two convex hulls.
template <int NA, int NB>
double separatedUntil(const std::array<Vec3, NA>& a, const std::array<Vec3, NA>& da, const std::array<Vec3, NB>& b,
                      const std::array<Vec3, NB>& db, double t0, const Probe& at, double margin) {
  if (!(at.distance > margin)) return t0;
  double t = std::numeric_limits<double>::infinity();
  for (int i = 0; i < NA; ++i)
    for (int j = 0; j < NB; ++j) {
      const double rate = at.normal.dot(db[j] - da[i]), height = at.normal.dot(b[j] + t0 * db[j] - a[i] - t0 * da[i]);
      if (rate < 0) t = std::min(t, t0 + std::max(0.0, (height - margin) / -rate));
    }
  return t;
}

Probe between(const Vec3& difference) {
  const double d = difference.norm();
  return {d, d > 0 ? Vec3(difference / d) : Vec3::Zero()};
}

}  // namespace

double pointTriangleCcd(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& dp, const Vec3& da, const Vec3& db,
                        const Vec3& dc, const CcdOptions& opts) {
  const Vec3 mean = 0.25 * (dp + da + db + dc);
  const Vec3 up = dp - mean, ua = da - mean, ub = db - mean, uc = dc - mean;
  const double speed = up.norm() + std::max({ua.norm(), ub.norm(), uc.norm()});
  const auto probe = [&](double t) {  // as pointTriangleDistance
    const Vec3 pt = p + t * up, at = a + t * ua, bt = b + t * ub, ct = c + t * uc;
    const Vec3 w = closestPointWeights(pt, at, bt, ct);
    return between(pt - (w[0] * at + w[1] * bt + w[2] * ct));
  };
  const auto separated = [&](double t, const Probe& here, double margin) {
    return separatedUntil<3, 1>({a, b, c}, {ua, ub, uc}, {p}, {up}, t, here, margin);
  };
  return march(probe, separated, speed, opts);
}

double edgeEdgeCcd(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, const Vec3& dp0, const Vec3& dp1, const Vec3& dq0,
                   const Vec3& dq1, const CcdOptions& opts) {
  const Vec3 mean = 0.25 * (dp0 + dp1 + dq0 + dq1);
  const Vec3 u0 = dp0 - mean, u1 = dp1 - mean, w0 = dq0 - mean, w1 = dq1 - mean;
  const double speed = std::max(u0.norm(), u1.norm()) + std::max(w0.norm(), w1.norm());
  const auto probe = [&](double t) {  // as segmentDistance
    const Vec3 a0 = p0 + t * u0, a1 = p1 + t * u1, b0 = q0 + t * w0, b1 = q1 + t * w1;
    const Vec2 st = closestSegmentParameters(a0, a1, b0, b1);
    return between((a0 + st[0] * (a1 - a0)) - (b0 + st[1] * (b1 - b0)));
  };
  const auto separated = [&](double t, const Probe& here, double margin) {
    return separatedUntil<2, 2>({q0, q1}, {w0, w1}, {p0, p1}, {u0, u1}, t, here, margin);
  };
  return march(probe, separated, speed, opts);
}

double ccdCullDistance(double motion, const CcdOptions& opts) {
  return (1 + 1e-9) * (opts.min_distance + motion / opts.rescale);
}

double pointColliderCcd(const Vec3& p, const Vec3& dp, const Collider& collider, const CcdOptions& opts) {
  const auto probe = [&](double t) {
    const SurfacePoint s = closestSurfacePoint(collider, p + t * dp);
    return Probe{s.distance, s.normal};
  };
  // A convex collider lies behind the plane tangent to it at the point's closest point: the point is
  // clear of it while it stays above that plane.
  const auto separated = [&](double t, const Probe& here, double margin) {
    if (collider.shape == Collider::Shape::Torus || !(here.distance > margin)) return t;
    const double rate = here.normal.dot(dp);
    return rate < 0 ? t + (here.distance - margin) / -rate : std::numeric_limits<double>::infinity();
  };
  return march(probe, separated, dp.norm(), opts);
}

double pointMovingColliderCcd(const Vec3& p, const Vec3& dp, const Collider& end, double h, const CcdOptions& opts) {
  const Vec3 shift = h * end.velocity;  // the collider's position moves by this over the frame
  const double reach = (p - (end.position - shift)).norm() + dp.norm() + shift.norm();
  const double speed = dp.norm() + shift.norm() + h * end.angular_velocity.norm() * reach;
  Collider posed = end;  // its pose at t set by each probe
  const auto probe = [&](double t) {
    poseWithinFrame(end, h, t, posed);
    const SurfacePoint s = closestSurfacePoint(posed, p + t * dp);
    return Probe{s.distance, s.normal};
  };
  return march(probe, kNothingKnown, speed, opts);
}

}  // namespace qnsim
