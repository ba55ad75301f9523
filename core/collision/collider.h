#pragma once
// The geometric queries on colliders (qnsim/collider.h): pose at a time, closest surface point,
// penetration. The scene and the renderer need only these; the contact energy that acts on the
// simulation is an algorithm of its own (contacts.h).
#include <algorithm>
#include <cmath>
#include <vector>

#include "qnsim/collider.h"

namespace qnsim {

// The collider as its motion places it at time t, with the velocities over the frame [t - h, t].
Collider posedAt(const Collider& rest, double t, double h);

// The collider at fraction s in [0, 1] of the frame [t - h, t] that ends with it at `end` (posedAt's
// pose at t), moving at its velocities: its position along a line, its rotation at a constant rate.
// s = 0 is exactly its pose at t - h (the velocities are that frame's differences, motion.h).
Collider posedWithinFrame(const Collider& end, double h, double s);
// The same pose set in `out` (a copy of `end`), without copying the collider's name and motion: for
// queries along the frame, one pose after another.
void poseWithinFrame(const Collider& end, double h, double s, Collider& out);

// Velocity of the collider's material point at world position p.
Vec3 pointVelocity(const Collider& collider, const Vec3& p);

struct SurfacePoint {
  double distance;  // signed: negative inside
  Vec3 point;       // closest point on the surface
  Vec3 normal;      // outward unit normal at `point`
};
SurfacePoint closestSurfacePoint(const Collider& collider, const Vec3& p);

// The radius of a sphere about the collider's position that holds its surface (infinite for a plane).
inline double boundingRadius(const Collider& c) {
  switch (c.shape) {
    case Collider::Shape::Plane: return INFINITY;
    case Collider::Shape::Sphere: return c.radius;
    case Collider::Shape::Capsule: return c.half_length + c.radius;
    case Collider::Shape::Torus: return c.major_radius + c.minor_radius;
    case Collider::Shape::Box: return c.half_extents.norm();
  }
  return INFINITY;
}

// Whether p may lie within `reach` of the collider's surface (or inside it), as it stands: false only
// when p is farther than that. The cull before closestSurfacePoint, for every vertex and collider at
// every query, so inline and cheaper: the bounding sphere, then the shape's distance without its
// closest point, loosened by a part in 10^9 so that round-off never culls a point closestSurfacePoint
// finds within reach. For a collider moving over the query, `reach` must hold how far its surface moves.
inline bool mayReach(const Collider& c, const Vec3& p, double reach) {
  const double r = (1 + 1e-9) * (boundingRadius(c) + reach);
  if (!std::isfinite(r)) return true;
  const Vec3 q = p - c.position;
  if (q.squaredNorm() > r * r) return false;
  const auto within = [&](double squared_distance, double radius) {
    const double limit = (1 + 1e-9) * (radius + reach) + 1e-12 * r;
    return squared_distance <= limit * limit;
  };
  switch (c.shape) {
    case Collider::Shape::Torus: {  // the tube around the ring of major radius in the local xy plane
      const double rho = std::sqrt(Vec2(c.rotation.col(0).dot(q), c.rotation.col(1).dot(q)).squaredNorm()), z = c.rotation.col(2).dot(q);
      return within((rho - c.major_radius) * (rho - c.major_radius) + z * z, c.minor_radius);
    }
    case Collider::Shape::Capsule: {  // the segment along local z
      const Vec3 axis = c.rotation.col(2);
      return within((q - std::clamp(axis.dot(q), -c.half_length, c.half_length) * axis).squaredNorm(), c.radius);
    }
    case Collider::Shape::Box:  // the distance outside the box (inside counts as within reach)
      return within(((c.rotation.transpose() * q).cwiseAbs() - c.half_extents).cwiseMax(0.0).squaredNorm(), 0.0);
    default: return true;  // the sphere is its bounding sphere
  }
}

// Vertices below collider surfaces at x (telemetry; no energy).
struct ContactStats {
  int penetrating = 0;  // vertices below some collider surface
  double max_penetration = 0.0;  // largest depth below any surface, >= 0
};

ContactStats measureContacts(const std::vector<Collider>& colliders, const VecX& x);

}  // namespace qnsim
