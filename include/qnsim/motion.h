#pragma once
// Keyframed rigid motion, shared by handles and colliders. A motion is a list of segments; at time t
// it gives a rotation R(t) (applied about the object's centre c) and a translation T(t):
//   p(t) = c + R(t) (p - c) + T(t),
// with R the product of the segments' rotations (in list order) and T the sum of their translations.
#include <limits>
#include <vector>

#include "qnsim/types.h"

namespace qnsim {

// One pose of a key list: where the object is at `time`, relative to its rest pose.
struct KeyPose {
  double time = 0;  // seconds
  Vec3 translate = Vec3::Zero();
  Vec3 rotation = Vec3::Zero();  // rotation vector: unit axis times the angle in radians
  bool operator==(const KeyPose&) const = default;
};

struct MotionSegment {
  // Twist is Rotate about the object's own centre (the same thing; the name reads better for bars).
  enum class Type { Translate, Rotate, Shake, Keys };
  enum class Interpolation { Linear, Smooth };
  Type type = Type::Translate;
  Vec3 vector = Vec3::Zero();  // translate: velocity (m/s); rotate: unit axis; shake: unit direction
  double rate = 0;             // rotate: degrees per second
  double amplitude = 0, frequency = 0;  // shake: metres, Hz
  double start = 0, end = std::numeric_limits<double>::infinity();  // seconds (not used by Keys)
  // Keys: poses at increasing times, held before the first key and after the last. Translations and
  // rotation vectors are interpolated, so keys about one axis interpolate their angles as written
  // (0 to 360 degrees is a full turn). Smooth eases in and out of every key (zero velocity there);
  // Linear moves at constant velocity between keys, so velocities jump at keys (impulses).
  std::vector<KeyPose> keys;
  Interpolation interpolation = Interpolation::Linear;
  bool operator==(const MotionSegment&) const = default;
};

struct RigidTransform {
  Mat3 R = Mat3::Identity();
  Vec3 T = Vec3::Zero();
};

// R(t) and T(t) of a motion; the identity for an empty one.
RigidTransform motionAt(const std::vector<MotionSegment>& motion, double t);

// The transform's linear velocity T' and angular velocity w (rad/s) over [t - h, t], from the poses
// at both ends, so a point p moving with it has velocity T' + w x (p - c - T(t)).
void motionVelocity(const std::vector<MotionSegment>& motion, double t, double h, Vec3& linear, Vec3& angular);

}  // namespace qnsim
