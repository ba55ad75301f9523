#pragma once
// An orbit camera: it looks at `target` from `distance` away along the direction given by yaw and
// pitch (y up). Pure maths, no OpenGL, so picking and the tests can use it.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace qnsim::view {

using Vec2f = Eigen::Vector2f;
using Vec3f = Eigen::Vector3f;
using Vec4f = Eigen::Vector4f;
using Mat4f = Eigen::Matrix4f;

struct Ray {
  Vec3f origin, direction;  // direction has unit length
};

class OrbitCamera {
 public:
  Vec3f target = Vec3f::Zero();
  float distance = 3.0f;
  float yaw = 0.0f;    // radians about +y; 0 looks along -z
  float pitch = 0.3f;  // radians above the horizon, kept inside (-89, 89) degrees
  float fov_y = 0.7854f;  // radians

  Vec3f eye() const;
  Vec3f forward() const;  // unit, from the eye to the target
  Vec3f right() const;
  Vec3f up() const;
  Mat4f view() const;
  // Near and far planes follow the distance so that depth precision holds at every zoom.
  Mat4f projection(float aspect) const;

  void lookAt(const Vec3f& eye, const Vec3f& target);
  // Pixel deltas of a mouse drag (positive dx turns the view to the right, positive dy looks from above).
  void orbit(float dx_pixels, float dy_pixels);
  // Moves target and eye together so that the point under the mouse follows it.
  void pan(float dx_pixels, float dy_pixels, float viewport_height);
  // Positive steps zoom in (each step 10 % closer).
  void zoom(float steps);
  // Looks at the centre of the box from the current direction, far enough to see it whole.
  void frame(const Vec3f& box_min, const Vec3f& box_max, float aspect);

  // The ray through a pixel (origin at the top left, as GLFW reports the mouse) of a viewport.
  Ray ray(const Vec2f& pixel, const Vec2f& viewport) const;
  // The pixel a world point projects to; false when it is behind the eye.
  bool project(const Vec3f& point, const Vec2f& viewport, Vec2f& pixel) const;
};

}  // namespace qnsim::view
