#pragma once
// A rigid collider as scenes describe it: shape, pose and keyframed motion. Vertices that penetrate it
// get the contact energy of the paper's Sec. 4.3 (contact_* settings). Lengths in metres, angles in
// radians, velocities in m/s and rad/s.
#include <string>
#include <vector>

#include "qnsim/motion.h"
#include "qnsim/types.h"

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
  // Keyframed motion of the pose about `position` (empty: static).
  std::vector<MotionSegment> motion;
  // Plane: none. Sphere: radius. Box: half extents. Capsule: radius, half length along z.
  // Torus: major radius (centre of the tube) around z, minor radius (tube).
  double radius = 0.5, half_length = 0.5, major_radius = 1.0, minor_radius = 0.25;
  Vec3 half_extents = Vec3::Constant(0.5);
  bool operator==(const Collider&) const = default;
};

}  // namespace qnsim
