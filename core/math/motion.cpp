#include "qnsim/motion.h"

#include <algorithm>
#include <cmath>

namespace qnsim {
namespace {

Mat3 rotationMatrix(const Vec3& rotation_vector) {
  const double angle = rotation_vector.norm();
  return angle > 0 ? Eigen::AngleAxisd(angle, rotation_vector / angle).toRotationMatrix() : Mat3::Identity();
}

RigidTransform keyPose(const MotionSegment& m, double t) {
  const std::vector<KeyPose>& keys = m.keys;
  if (keys.empty()) return {};
  if (t <= keys.front().time) return {rotationMatrix(keys.front().rotation), keys.front().translate};
  if (t >= keys.back().time) return {rotationMatrix(keys.back().rotation), keys.back().translate};
  const auto next = std::upper_bound(keys.begin(), keys.end(), t, [](double time, const KeyPose& k) { return time < k.time; });
  const KeyPose &b = *next, &a = *(next - 1);
  double s = (t - a.time) / (b.time - a.time);
  if (m.interpolation == MotionSegment::Interpolation::Smooth) s = s * s * (3.0 - 2.0 * s);
  return {rotationMatrix((1.0 - s) * a.rotation + s * b.rotation), (1.0 - s) * a.translate + s * b.translate};
}

}  // namespace

RigidTransform motionAt(const std::vector<MotionSegment>& motion, double t) {
  RigidTransform out;
  for (const MotionSegment& m : motion) {
    const double elapsed = std::clamp(t, m.start, m.end) - m.start;  // time spent inside the segment
    switch (m.type) {
      case MotionSegment::Type::Translate: out.T += m.vector * elapsed; break;
      case MotionSegment::Type::Rotate:
        out.R = Eigen::AngleAxisd(m.rate * elapsed * M_PI / 180.0, m.vector).toRotationMatrix() * out.R;
        break;
      case MotionSegment::Type::Shake: out.T += m.vector * m.amplitude * std::sin(2.0 * M_PI * m.frequency * elapsed); break;
      case MotionSegment::Type::Keys: {
        const RigidTransform key = keyPose(m, t);
        out.R = key.R * out.R;
        out.T += key.T;
        break;
      }
    }
  }
  return out;
}

void motionVelocity(const std::vector<MotionSegment>& motion, double t, double h, Vec3& linear, Vec3& angular) {
  const RigidTransform now = motionAt(motion, t), before = motionAt(motion, t - h);
  linear = (now.T - before.T) / h;
  const Eigen::AngleAxisd turn(now.R * before.R.transpose());
  angular = turn.axis() * turn.angle() / h;
}

}  // namespace qnsim
