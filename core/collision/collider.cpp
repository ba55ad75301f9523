#include "core/collision/collider.h"

#include <algorithm>
#include <cmath>

namespace qnsim {
namespace {

// Closest point in the collider's local frame.
SurfacePoint localClosest(const Collider& c, const Vec3& p) {
  switch (c.shape) {
    case Collider::Shape::Plane: return {p.y(), Vec3(p.x(), 0, p.z()), Vec3::UnitY()};
    case Collider::Shape::Sphere: {
      const double r = p.norm();
      const Vec3 n = r > 0 ? Vec3(p / r) : Vec3::UnitY();
      return {r - c.radius, c.radius * n, n};
    }
    case Collider::Shape::Capsule: {
      const Vec3 axis_point(0, 0, std::clamp(p.z(), -c.half_length, c.half_length));
      const Vec3 d = p - axis_point;
      const double r = d.norm();
      const Vec3 n = r > 0 ? Vec3(d / r) : Vec3::UnitX();
      return {r - c.radius, axis_point + c.radius * n, n};
    }
    case Collider::Shape::Torus: {
      const Vec2 radial(p.x(), p.y());
      const double rho = radial.norm();
      const Vec3 ring = rho > 0 ? Vec3(c.major_radius * p.x() / rho, c.major_radius * p.y() / rho, 0) : Vec3(c.major_radius, 0, 0);
      const Vec3 d = p - ring;
      const double r = d.norm();
      const Vec3 n = r > 0 ? Vec3(d / r) : Vec3::UnitZ();
      return {r - c.minor_radius, ring + c.minor_radius * n, n};
    }
    case Collider::Shape::Box: {
      const Vec3 q = p.cwiseAbs() - c.half_extents;
      if ((q.array() > 0).any()) {  // outside: clamp to the box
        const Vec3 point = p.cwiseMax(-c.half_extents).cwiseMin(c.half_extents);
        const Vec3 d = p - point;
        return {d.norm(), point, d.normalized()};
      }
      int axis;  // inside: leave through the nearest face
      q.maxCoeff(&axis);
      Vec3 n = Vec3::Zero();
      n[axis] = p[axis] >= 0 ? 1.0 : -1.0;
      Vec3 point = p;
      point[axis] = n[axis] * c.half_extents[axis];
      return {q[axis], point, n};
    }
  }
  return {1.0, p, Vec3::UnitY()};
}

}  // namespace

Collider posedAt(const Collider& rest, double t, double h) {
  Collider c = rest;
  if (rest.motion.empty()) return c;
  const RigidTransform pose = motionAt(rest.motion, t);
  c.position = rest.position + pose.T;
  c.rotation = pose.R * rest.rotation;
  motionVelocity(rest.motion, t, h, c.velocity, c.angular_velocity);
  return c;
}

Collider posedWithinFrame(const Collider& end, double h, double s) {
  Collider c = end;
  poseWithinFrame(end, h, s, c);
  return c;
}

void poseWithinFrame(const Collider& end, double h, double s, Collider& out) {
  const double back = (1.0 - s) * h;
  out.position = end.position - back * end.velocity;
  const double rate = end.angular_velocity.norm();
  out.rotation = rate > 0 ? Mat3(Eigen::AngleAxisd(-back * rate, end.angular_velocity / rate).toRotationMatrix() * end.rotation) : end.rotation;
}

Vec3 pointVelocity(const Collider& c, const Vec3& p) { return c.velocity + c.angular_velocity.cross(p - c.position); }

SurfacePoint closestSurfacePoint(const Collider& c, const Vec3& p) {
  SurfacePoint s = localClosest(c, c.rotation.transpose() * (p - c.position));
  return {s.distance, c.position + c.rotation * s.point, c.rotation * s.normal};
}

ContactStats measureContacts(const std::vector<Collider>& colliders, const VecX& x) {
  ContactStats stats;
  for (const Collider& c : colliders)
    for (Eigen::Index v = 0; v < x.size() / 3; ++v) {
      const double d = closestSurfacePoint(c, vertex(x, v)).distance;
      if (d < 0) {
        ++stats.penetrating;
        stats.max_penetration = std::max(stats.max_penetration, -d);
      }
    }
  return stats;
}

}  // namespace qnsim
