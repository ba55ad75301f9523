#pragma once
// Rigid colliders as signed distance functions, and the active contact set of paper Sec. 4.3: a
// penetrating vertex gets the energy k_c/2 ((x - t) . n)^2 (t its projection on the surface, n the
// normal there) in g and grad g but not in A, so A is never refactored. The set is refreshed before
// every gradient evaluation; a vertex touching the surface whose velocity relative to the collider
// separates it from the surface is released. The term is one-sided (objective.h), so it never acts as
// glue. Colliders may move along keyframes; their surface velocity enters the release test and the
// optional friction.
#include <string>
#include <vector>

#include "core/objective/objective.h"
#include "core/scene/motion.h"

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

struct ContactStats {
  int penetrating = 0;  // vertices below some collider surface
  double max_penetration = 0.0;  // largest depth below any surface, >= 0
};

struct ContactParams {
  double time_step = 1.0 / 30.0;
  double stiffness = 1e5;  // k_c (N/m)
  double margin = 0;       // vertices within this distance above the surface are contact candidates (m)
  double friction = 0;     // Coulomb coefficient; 0 = frictionless
  double slip_speed = 0.01;  // tangential speed below which friction acts as a stiff drag (m/s)
};

// Rebuilds the objective's contact (and friction) terms for positions x. `previous` are the
// start-of-frame positions, for the vertex velocity (x - previous)/h. Friction anchors each contact at
// the vertex's start-of-frame position carried along by the collider, with the normal force
// k_c |depth| at x. Returns true when g(x) changed: when the set of vertices whose terms push at x
// (the penetrating ones) changed.
bool refreshContacts(const std::vector<Collider>& colliders, const VecX& x, const VecX& previous, const ContactParams& params,
                     Objective& objective);

ContactStats measureContacts(const std::vector<Collider>& colliders, const VecX& x);

}  // namespace qnsim
