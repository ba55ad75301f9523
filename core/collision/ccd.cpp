#include "core/collision/ccd.h"

#include <algorithm>
#include <cmath>

#include "core/collision/collider.h"
#include "core/math/proximity.h"

namespace qnsim {
namespace {

// The additive march (see ccd.h) on a distance function of t with rate bound `speed`, on d - xi so
// that distances below xi count as contact whatever their round-off.
template <class Distance>
double additiveMarch(Distance distance, double speed, const CcdOptions& opts) {
  if (!(speed > 0)) return opts.max_time;  // no relative motion
  const double xi = opts.min_distance;
  double d = distance(0.0) - xi;
  if (!(d > 0)) return 0.0;
  // The first step leaves twice the gap of a head-on approach, so that round-off at the gap cannot
  // end the march at t = 0.
  const double gap = (1.0 - opts.rescale) * d;
  double t = 0.0, step = (1.0 - 2.0 * (1.0 - opts.rescale)) * d / speed;
  for (int k = 0; k < opts.max_steps; ++k) {
    const double next = std::min(t + step, opts.max_time);
    d = distance(next) - xi;
    if (d < gap) return t;  // reached within the gap: t is safe, and `next` was too
    t = next;
    if (t >= opts.max_time) return opts.max_time;
    step = opts.rescale * d / speed;
  }
  return t;
}

}  // namespace

double pointTriangleCcd(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& dp, const Vec3& da, const Vec3& db,
                        const Vec3& dc, const CcdOptions& opts) {
  const Vec3 mean = 0.25 * (dp + da + db + dc);
  const Vec3 up = dp - mean, ua = da - mean, ub = db - mean, uc = dc - mean;
  const double speed = up.norm() + std::max({ua.norm(), ub.norm(), uc.norm()});
  return additiveMarch(
      [&](double t) { return pointTriangleDistance(p + t * up, a + t * ua, b + t * ub, c + t * uc); }, speed, opts);
}

double edgeEdgeCcd(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, const Vec3& dp0, const Vec3& dp1, const Vec3& dq0,
                   const Vec3& dq1, const CcdOptions& opts) {
  const Vec3 mean = 0.25 * (dp0 + dp1 + dq0 + dq1);
  const Vec3 u0 = dp0 - mean, u1 = dp1 - mean, w0 = dq0 - mean, w1 = dq1 - mean;
  const double speed = std::max(u0.norm(), u1.norm()) + std::max(w0.norm(), w1.norm());
  return additiveMarch([&](double t) { return segmentDistance(p0 + t * u0, p1 + t * u1, q0 + t * w0, q1 + t * w1); }, speed, opts);
}

double pointColliderCcd(const Vec3& p, const Vec3& dp, const Collider& collider, const CcdOptions& opts) {
  return additiveMarch([&](double t) { return closestSurfacePoint(collider, p + t * dp).distance; }, dp.norm(), opts);
}

double pointMovingColliderCcd(const Vec3& p, const Vec3& dp, const Collider& end, double h, const CcdOptions& opts) {
  const Vec3 shift = h * end.velocity;  // the collider's position moves by this over the frame
  const double reach = (p - (end.position - shift)).norm() + dp.norm() + shift.norm();
  const double speed = dp.norm() + shift.norm() + h * end.angular_velocity.norm() * reach;
  return additiveMarch([&](double t) { return closestSurfacePoint(posedWithinFrame(end, h, t), p + t * dp).distance; }, speed, opts);
}

}  // namespace qnsim
