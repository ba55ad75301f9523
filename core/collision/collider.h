#pragma once
// Rigid colliders as data: shape, pose and keyframed motion, with the geometric queries on them
// (closest surface point, penetration). The scene and the renderer need only this; the contact energy
// that acts on the simulation is an algorithm of its own (contacts.h).
#include <string>
#include <vector>

#include "core/common/types.h"
#include "core/math/motion.h"

namespace qnsim {

struct Collider {
  enum class Shape { Plane, Sphere, Box, Capsule, Torus };
  Shape shape = Shape::Plane;
  std::string name;
  // Pose: the collider's local frame (local z is the axis of capsules and tori, local y the normal of
  // planes) placed at `position` with `rotation`.
  Vec3 position = Vec3::Zero();
  Mat3 rotation = Mat3::Identity();
  // Velocity of the frame (angular about `position`, rad/s), for the separation test and friction.
  Vec3 velocity = Vec3::Zero(), angular_velocity = Vec3::Zero();
  // Keyframed motion of the pose about `position` (empty: static); see posedAt.
  std::vector<MotionSegment> motion;
  // Plane: none. Sphere: radius. Box: half extents. Capsule: radius, half length along z.
  // Torus: major radius (centre of the tube) around z, minor radius (tube).
  double radius = 0.5, half_length = 0.5, major_radius = 1.0, minor_radius = 0.25;
  Vec3 half_extents = Vec3::Constant(0.5);
};

// The collider as its motion places it at time t, with the velocities over the frame [t - h, t].
Collider posedAt(const Collider& rest, double t, double h);

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

// Vertices below collider surfaces at x (telemetry; no energy).
struct ContactStats {
  int penetrating = 0;  // vertices below some collider surface
  double max_penetration = 0.0;  // largest depth below any surface, >= 0
};

ContactStats measureContacts(const std::vector<Collider>& colliders, const VecX& x);

}  // namespace qnsim
