#pragma once
// The geometric queries on colliders (qnsim/collider.h): pose at a time, closest surface point,
// penetration. The scene and the renderer need only these; the contact energy that acts on the
// simulation is an algorithm of its own (contacts.h).
#include <vector>

#include "qnsim/collider.h"

namespace qnsim {

// The collider as its motion places it at time t, with the velocities over the frame [t - h, t].
Collider posedAt(const Collider& rest, double t, double h);

// The collider at fraction s in [0, 1] of the frame [t - h, t] that ends with it at `end` (posedAt's
// pose at t), moving at its velocities: its position along a line, its rotation at a constant rate.
// s = 0 is exactly its pose at t - h (the velocities are that frame's differences, motion.h).
Collider posedWithinFrame(const Collider& end, double h, double s);

// Velocity of the collider's material point at world position p.
Vec3 pointVelocity(const Collider& collider, const Vec3& p);

struct SurfacePoint {
  double distance;  // signed: negative inside
  Vec3 point;       // closest point on the surface
  Vec3 normal;      // outward unit normal at `point`
};
SurfacePoint closestSurfacePoint(const Collider& collider, const Vec3& p);
// The radius of a sphere about the collider's position that holds its surface (infinite for a plane).
double boundingRadius(const Collider& collider);
// Whether p may lie within `reach` of the collider's surface: false only when it is farther than that
// from its bounding sphere (the cull before closestSurfacePoint).
bool mayReach(const Collider& collider, const Vec3& p, double reach);

// Vertices below collider surfaces at x (telemetry; no energy).
struct ContactStats {
  int penetrating = 0;  // vertices below some collider surface
  double max_penetration = 0.0;  // largest depth below any surface, >= 0
};

ContactStats measureContacts(const std::vector<Collider>& colliders, const VecX& x);

}  // namespace qnsim
