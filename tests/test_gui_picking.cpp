// Picking for the sandbox: ray-triangle tests, the surface vertex under the mouse on a real model,
// the drag plane and box selection.
#include <gtest/gtest.h>

#include "core/sim/build_model.h"
#include "view/picking.h"
#include "view/surface_view.h"
#include "tests/sim_fixtures.h"

namespace qnsim::view {
namespace {

TEST(GuiPicking, RayTriangleHitsInsideMissesOutsideAndBehind) {
  const Vec3f a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  const Ray down{Vec3f(0.2f, 0.2f, 1), Vec3f(0, 0, -1)};
  EXPECT_NEAR(intersectTriangle(down, a, b, c), 1.0f, 1e-6f);
  EXPECT_NEAR(intersectTriangle(down, a, c, b), 1.0f, 1e-6f);  // either winding
  EXPECT_LT(intersectTriangle({Vec3f(0.8f, 0.8f, 1), Vec3f(0, 0, -1)}, a, b, c), 0.0f);
  EXPECT_LT(intersectTriangle({Vec3f(0.2f, 0.2f, 1), Vec3f(0, 0, 1)}, a, b, c), 0.0f);  // behind the origin
}

class PickBox : public ::testing::Test {
 protected:
  BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "neo_hookean"})"));  // 1 x 0.8 x 0.6 box at the origin
  SurfaceView view = makeSurfaceView(built.model);
  const VecX& x = built.model.rest;
};

TEST_F(PickBox, PicksTheNearestCornerOfTheFrontFace) {
  OrbitCamera camera;
  camera.lookAt(Vec3f(0.45f, 0.35f, 3), Vec3f(0.45f, 0.35f, 0));  // looking down -z at the +z face near (0.5, 0.4)
  const PickHit hit = pickSurfaceVertex(camera.ray(Vec2f(400, 300), Vec2f(800, 600)), x, view.triangles);
  ASSERT_GE(hit.vertex, 0);
  EXPECT_NEAR(hit.point.z(), 0.3f, 1e-5f);  // the front face, not the back one
  EXPECT_NEAR((vertex(x, hit.vertex).cast<float>() - Vec3f(0.5f, 0.4f, 0.3f)).norm(), 0.0f, 1e-5f);
  EXPECT_EQ(pickSurfaceVertex({Vec3f(5, 5, 5), Vec3f(0, 0, 1)}, x, view.triangles).vertex, -1);
}

TEST_F(PickBox, DragPlaneAndBoxSelection) {
  const Ray ray{Vec3f(0, 0, 2), Vec3f(0, 0, -1)};
  EXPECT_NEAR((intersectPlane(ray, Vec3f(3, 4, 0.5f), Vec3f(0, 0, 1)) - Vec3f(0, 0, 0.5f)).norm(), 0.0f, 1e-6f);
  EXPECT_EQ(intersectPlane(ray, Vec3f(1, 2, 3), Vec3f(1, 0, 0)), Vec3f(1, 2, 3));  // parallel: stays put

  OrbitCamera camera;
  camera.lookAt(Vec3f(0, 0, 4), Vec3f(0, 0, 0));
  std::vector<int> all;
  for (int v = 0; v < built.model.vertexCount(); ++v) all.push_back(v);
  const Vec2f viewport(800, 600);
  Vec2f centre;
  camera.project(Vec3f::Zero(), viewport, centre);
  const std::vector<int> picked = verticesInRect(camera, viewport, centre - Vec2f(5, 5), centre + Vec2f(5, 5), x, all);
  ASSERT_EQ(picked.size(), 3u);  // the centre column of the 3 x 3 x 3 grid (front, middle, back)
  for (int v : picked) EXPECT_NEAR(vertex(x, v).head<2>().norm(), 0.0, 1e-9);
  EXPECT_EQ(verticesInRect(camera, viewport, Vec2f(0, 0), viewport, x, all).size(), all.size());
}

TEST_F(PickBox, SurfaceViewCoversTheBoundaryWithOutwardNormals) {
  EXPECT_EQ(view.vertices.size(), 26u);  // every vertex of the 3 x 3 x 3 grid but the centre
  std::vector<float> positions, normals;
  gatherPositions(view, x, positions);
  computeNormals(view, positions, normals);
  for (size_t i = 0; i < view.vertices.size(); ++i) {
    const Vec3f p(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]), n(normals[3 * i], normals[3 * i + 1], normals[3 * i + 2]);
    EXPECT_NEAR(n.norm(), 1.0f, 1e-5f);
    EXPECT_GT(n.dot(p), 0.0f) << "vertex " << view.vertices[i];  // outward from the box centre
  }
}

}  // namespace
}  // namespace qnsim::view
