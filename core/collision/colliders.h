#pragma once
// Rigid colliders as signed distance functions, and the active contact set of paper Sec. 4.3: a
// penetrating vertex gets the energy k_c/2 ((x - t) . n)^2 (t its projection on the surface, n the
// normal there) in g and grad g but not in A, so A is never refactored. The set is refreshed before
// every gradient evaluation; a vertex in contact whose velocity relative to the collider separates it
// from the surface is released, so contacts never act as glue.
#include <string>
#include <vector>

#include "core/objective/objective.h"

namespace qnsim {

struct Collider {
  enum class Shape { Plane, Sphere, Box, Capsule, Torus };
  Shape shape = Shape::Plane;
  std::string name;
  // Pose: the collider's local frame (local z is the axis of capsules and tori, local y the normal of
  // planes) placed at `position` with `rotation`.
  Vec3 position = Vec3::Zero();
  Mat3 rotation = Mat3::Identity();
  Vec3 velocity = Vec3::Zero();  // for the separation test of moving colliders
  // Plane: none. Sphere: radius. Box: half extents. Capsule: radius, half length along z.
  // Torus: major radius (centre of the tube) around z, minor radius (tube).
  double radius = 0.5, half_length = 0.5, major_radius = 1.0, minor_radius = 0.25;
  Vec3 half_extents = Vec3::Constant(0.5);
};

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

// Rebuilds `contacts` for positions x. `previous` are the start-of-frame positions and h the time step,
// for the vertex velocity (x - previous)/h. Returns true when the active set changed.
bool refreshContacts(const std::vector<Collider>& colliders, const VecX& x, const VecX& previous, double h, double stiffness,
                     double margin, std::vector<ContactTerm>& contacts);

ContactStats measureContacts(const std::vector<Collider>& colliders, const VecX& x);

}  // namespace qnsim
