// Picking for the sandbox: ray-triangle tests, the surface vertex under the mouse on a real model,
// the drag plane and box selection, and picking through a render mesh.
#include <gtest/gtest.h>

#include <array>

#include "core/common/files.h"
#include "core/sim/build_model.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"
#include "view/picking.h"
#include "view/surface_view.h"

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

// Strands are drawn as tubes around their segments and picked within their radius.
class PickBrush : public ::testing::Test {
 protected:
  BuiltModel built = test::buildInline(R"({"version": 1, "bodies": [{"name": "brush", "translate": [0, 0.5, 0],
    "shape": {"type": "strands", "size": [0.1, 0], "strands": [2, 1], "length": 0.4, "segments": 4, "radius": 0.01},
    "materials": [{"region": "stretch", "model": "spring"}, {"region": "bend", "model": "spring"}]}]})");
  SurfaceView view = makeSurfaceView(built.model);
  const VecX& x = built.model.rest;  // strand 0 hangs from (-0.05, 0.5, 0), strand 1 from (0.05, 0.5, 0)
};

TEST_F(PickBrush, TubesSurroundTheStrandsFacingOutward) {
  ASSERT_EQ(view.tubes.size(), 2u);
  EXPECT_EQ(view.triangles.rows(), 0);
  EXPECT_EQ(view.vertices.size(), 2u * (5 * kTubeSides + 2));  // a ring per strand vertex and two caps
  EXPECT_EQ(view.local.size(), 2u * 3 * (4 * 2 * kTubeSides + 2 * kTubeSides));
  std::vector<float> positions, normals;
  gatherPositions(view, x, positions);
  computeNormals(view, positions, normals);
  for (const Tube& tube : view.tubes)
    for (size_t k = 0; k < tube.chain.size(); ++k)
      for (int j = 0; j < kTubeSides; ++j) {
        const int drawn = tube.first_drawn + static_cast<int>(k) * kTubeSides + j;
        const Vec3f p(positions[3 * drawn], positions[3 * drawn + 1], positions[3 * drawn + 2]);
        const Vec3f n(normals[3 * drawn], normals[3 * drawn + 1], normals[3 * drawn + 2]);
        const Vec3f offset = p - vertex(x, tube.chain[k]).cast<float>();
        EXPECT_EQ(view.vertices[drawn], tube.chain[k]);
        EXPECT_NEAR(offset.norm(), 0.01f, 1e-6f);
        EXPECT_NEAR(offset.y(), 0.0f, 1e-6f) << "the ring is square to the strand";
        EXPECT_GT(n.dot(offset), 0.0f) << "outward";
      }
}

TEST_F(PickBrush, PicksTheStrandVertexNearestWhereTheRayPasses) {
  const Ray at_vertex_2{Vec3f(-0.045f, 0.31f, 1), Vec3f(0, 0, -1)};  // 5 mm beside strand 0, 1 cm below its vertex 2
  const PickHit hit = pickVertex(at_vertex_2, x, view);
  EXPECT_EQ(hit.vertex, 2);
  EXPECT_NEAR(hit.distance, 1.0f, 0.01f);
  EXPECT_EQ(pickVertex({Vec3f(0.075f, 0.3f, 1), Vec3f(0, 0, -1)}, x, view).vertex, -1) << "2.5 radii beside strand 1";
  EXPECT_EQ(pickVertex({Vec3f(0.05f, 0.3f, 1), Vec3f(0, 0, -1)}, x, view).vertex, 5 + 2) << "strand 1's vertex 2";
}

}  // namespace
}  // namespace qnsim::view

namespace qnsim::view {
namespace {

// A 1 x 0.8 x 0.6 box cage carrying a finer surface (a render mesh, BodyDesc::render) a little inside it:
// the view draws the render mesh, with the cage beside it, and picking goes through the render mesh.
TEST(GuiPicking, ThroughARenderMeshWithTheCageOnAToggle) {
  const std::filesystem::path dir = test::scratchDir("gui_render_mesh");
  std::string obj;
  const int n = 9;  // a 9 x 9 grid of vertices on each face of a 0.9 x 0.7 x 0.5 box
  std::vector<Vec3> points;
  std::vector<std::array<int, 3>> faces;
  const Vec3 half(0.45, 0.35, 0.25);
  for (int axis = 0; axis < 3; ++axis)
    for (int side = -1; side <= 1; side += 2) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3, first = static_cast<int>(points.size());
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          Vec3 p;
          p[axis] = side * half[axis];
          p[u] = half[u] * (2.0 * i / (n - 1) - 1);
          p[v] = half[v] * (2.0 * j / (n - 1) - 1);
          points.push_back(p);
        }
      for (int i = 0; i + 1 < n; ++i)
        for (int j = 0; j + 1 < n; ++j) {
          const int a = first + i * n + j, b = a + n, c = b + 1, d = a + 1;
          if (side > 0) faces.push_back({a, b, c}), faces.push_back({a, c, d});
          else faces.push_back({a, c, b}), faces.push_back({a, d, c});
        }
    }
  for (const Vec3& p : points) obj += "v " + std::to_string(p.x()) + " " + std::to_string(p.y()) + " " + std::to_string(p.z()) + "\n";
  for (const auto& f : faces) obj += "f " + std::to_string(f[0] + 1) + " " + std::to_string(f[1] + 1) + " " + std::to_string(f[2] + 1) + "\n";
  writeFileBytes(dir / "fine.obj", obj);
  std::string scene = test::boxSceneJson(R"({"model": "neo_hookean"})");
  scene.insert(scene.find("\"density\""), "\"render_mesh\": \"fine.obj\", ");
  const BuiltModel built = buildModel(parseScene(scene, dir / "scene.json"));
  const SurfaceView view = makeSurfaceView(built.model);
  ASSERT_NE(view.cage, nullptr);
  EXPECT_EQ(view.cage->cage, nullptr);
  EXPECT_TRUE(view.cage->embed_index.empty());
  EXPECT_EQ(view.triangles.rows(), 0) << "the box is drawn by its render mesh only";
  EXPECT_EQ(view.surface_vertices, static_cast<int>(points.size()));
  EXPECT_EQ(view.surface_triangles, static_cast<int>(faces.size()));
  std::vector<float> drawn;
  gatherPositions(view, built.model.rest, drawn);
  for (size_t i = 0; i < points.size(); ++i)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(drawn[3 * i + k], points[i][k], 1e-6);

  // A ray down -z hits the render mesh's front face (z = 0.25), not the cage's (z = 0.3), and grabs a
  // vertex of the cage tet under it; on the cage view it hits the cage.
  const Ray ray{Vec3f(0.1f, 0.05f, 3), Vec3f(0, 0, -1)};
  const PickHit hit = pickVertex(ray, built.model.rest, view);
  ASSERT_GE(hit.vertex, 0);
  EXPECT_NEAR(hit.point.z(), 0.25f, 1e-5f);
  EXPECT_LT((vertex(built.model.rest, hit.vertex).cast<float>() - hit.point).norm(), 0.6f);
  const PickHit cage_hit = pickVertex(ray, built.model.rest, *view.cage);
  ASSERT_GE(cage_hit.vertex, 0);
  EXPECT_NEAR(cage_hit.point.z(), 0.3f, 1e-5f);
  EXPECT_EQ(pickVertex({Vec3f(5, 5, 5), Vec3f(0, 0, 1)}, built.model.rest, view).vertex, -1);
}

}  // namespace
}  // namespace qnsim::view
