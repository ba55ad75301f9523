// The colliders' drawn meshes (view/collider_mesh.h) wind counter-clockwise seen from outside, as their
// header promises: every triangle's winding agrees with the outward normals of its corners. (The
// experiments' pictures colour faces by their winding, so a mesh wound inwards shows as a back face.)
#include <gtest/gtest.h>

#include "view/collider_mesh.h"

namespace qnsim {
namespace {

using view::Vec3f;

TEST(ColliderMesh, EveryShapeWindsCounterClockwiseFromOutside) {
  for (const Collider::Shape shape : {Collider::Shape::Sphere, Collider::Shape::Box, Collider::Shape::Capsule, Collider::Shape::Torus}) {
    Collider c;
    c.shape = shape;
    c.radius = 0.3, c.half_length = 0.4, c.major_radius = 0.6, c.minor_radius = 0.2, c.half_extents = Vec3(0.5, 0.3, 0.2);
    c.rotation = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    c.position = Vec3(0.1, -0.2, 0.3);
    const view::DrawMesh mesh = view::colliderMesh(c, 16);
    ASSERT_FALSE(mesh.indices.empty());
    const auto at = [](const std::vector<float>& v, unsigned i) { return Vec3f(v[3 * i], v[3 * i + 1], v[3 * i + 2]); };
    int inward = 0;
    for (size_t t = 0; t < mesh.indices.size(); t += 3) {
      const unsigned a = mesh.indices[t], b = mesh.indices[t + 1], d = mesh.indices[t + 2];
      const Vec3f winding = (at(mesh.positions, b) - at(mesh.positions, a)).cross(at(mesh.positions, d) - at(mesh.positions, a));
      if (winding.squaredNorm() < 1e-14f) continue;  // a sliver at a pole
      inward += winding.dot(at(mesh.normals, a) + at(mesh.normals, b) + at(mesh.normals, d)) <= 0;
    }
    EXPECT_EQ(inward, 0) << "shape " << static_cast<int>(shape);
  }
}

}  // namespace
}  // namespace qnsim
