#include "view/camera.h"

#include <algorithm>
#include <cmath>

namespace qnsim::view {
namespace {
constexpr float kMaxPitch = 1.55334f;  // 89 degrees
}

Vec3f OrbitCamera::forward() const {
  return Vec3f(std::sin(yaw) * std::cos(pitch), -std::sin(pitch), -std::cos(yaw) * std::cos(pitch));
}
Vec3f OrbitCamera::eye() const { return target - distance * forward(); }
Vec3f OrbitCamera::right() const { return forward().cross(Vec3f::UnitY()).normalized(); }
Vec3f OrbitCamera::up() const { return right().cross(forward()); }

Mat4f OrbitCamera::view() const {
  const Vec3f f = forward(), r = right(), u = up(), e = eye();
  Mat4f m = Mat4f::Identity();
  m.row(0) << r.transpose(), -r.dot(e);
  m.row(1) << u.transpose(), -u.dot(e);
  m.row(2) << -f.transpose(), f.dot(e);
  return m;
}

Mat4f OrbitCamera::projection(float aspect) const {
  const float near_plane = std::max(1e-4f, 0.01f * distance), far_plane = 200.0f * distance;
  const float t = 1.0f / std::tan(0.5f * fov_y);
  Mat4f m = Mat4f::Zero();
  m(0, 0) = t / aspect;
  m(1, 1) = t;
  m(2, 2) = -(far_plane + near_plane) / (far_plane - near_plane);
  m(2, 3) = -2.0f * far_plane * near_plane / (far_plane - near_plane);
  m(3, 2) = -1.0f;
  return m;
}

void OrbitCamera::lookAt(const Vec3f& from, const Vec3f& to) {
  target = to;
  const Vec3f d = to - from;
  distance = std::max(d.norm(), 1e-4f);
  const Vec3f f = d / distance;
  pitch = std::clamp(std::asin(std::clamp(-f.y(), -1.0f, 1.0f)), -kMaxPitch, kMaxPitch);
  yaw = std::atan2(f.x(), -f.z());
}

void OrbitCamera::orbit(float dx, float dy) {
  yaw += 0.008f * dx;
  pitch = std::clamp(pitch + 0.008f * dy, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dx, float dy, float viewport_height) {
  // World size of one pixel at the target's depth.
  const float pixel = 2.0f * distance * std::tan(0.5f * fov_y) / std::max(viewport_height, 1.0f);
  target += pixel * (-dx * right() + dy * up());
}

void OrbitCamera::zoom(float steps) { distance = std::clamp(distance * std::pow(0.9f, steps), 1e-4f, 1e5f); }

void OrbitCamera::frame(const Vec3f& box_min, const Vec3f& box_max, float aspect) {
  target = 0.5f * (box_min + box_max);
  const float radius = std::max(0.5f * (box_max - box_min).norm(), 1e-3f);
  const float half_fov = 0.5f * std::min(fov_y, 2.0f * std::atan(std::tan(0.5f * fov_y) * aspect));
  distance = 1.1f * radius / std::sin(half_fov);
}

Ray OrbitCamera::ray(const Vec2f& pixel, const Vec2f& viewport) const {
  const float aspect = viewport.x() / std::max(viewport.y(), 1.0f);
  const float ndc_x = 2.0f * pixel.x() / viewport.x() - 1.0f, ndc_y = 1.0f - 2.0f * pixel.y() / viewport.y();
  const float t = std::tan(0.5f * fov_y);
  const Vec3f d = forward() + ndc_x * t * aspect * right() + ndc_y * t * up();
  return {eye(), d.normalized()};
}

bool OrbitCamera::project(const Vec3f& point, const Vec2f& viewport, Vec2f& pixel) const {
  const Vec4f clip = projection(viewport.x() / std::max(viewport.y(), 1.0f)) * view() * point.homogeneous();
  if (clip.w() <= 0.0f) return false;
  const float x = clip.x() / clip.w(), y = clip.y() / clip.w();
  pixel = Vec2f(0.5f * (x + 1.0f) * viewport.x(), 0.5f * (1.0f - y) * viewport.y());
  return true;
}

}  // namespace qnsim::view
