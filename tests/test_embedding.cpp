// Embedded render meshes (core/mesh/embedding.h, BodyDesc::render): the render surface readers keep texture
// coordinates and normals, the barycentric binding reproduces the render mesh exactly at rest and moves it
// rigidly with a rigid motion of the cage, vertices outside the cage follow the nearest tet, and a scene's
// "render_mesh" is drawn and exported in place of the simulation surface while the simulation is unchanged.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "core/common/files.h"
#include "core/export/drawn_surfaces.h"
#include "core/math/proximity.h"
#include "core/mesh/embedding.h"
#include "core/mesh/io_formats.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/shapes.h"
#include "core/mesh/surface.h"
#include "qnsim/error.h"
#include "qnsim/export.h"
#include "qnsim/scene.h"
#include "qnsim/simulation.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

namespace fs = std::filesystem;

// A unit cube centred at the origin (as a box shape is), 8 corners with one normal and texture square per face: 24 render vertices.
const char* kCubeObj = R"(# a unit cube centred at the origin
v -0.5 -0.5 -0.5
v 0.5 -0.5 -0.5
v 0.5 0.5 -0.5
v -0.5 0.5 -0.5
v -0.5 -0.5 0.5
v 0.5 -0.5 0.5
v 0.5 0.5 0.5
v -0.5 0.5 0.5
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 -1
vn 0 0 1
vn 0 -1 0
vn 0 1 0
vn -1 0 0
vn 1 0 0
f 1/1/1 4/4/1 3/3/1 2/2/1
f 5/1/2 6/2/2 7/3/2 8/4/2
f 1/1/3 2/2/3 6/3/3 5/4/3
f 4/1/4 8/4/4 7/3/4 3/2/4
f 1/1/5 5/2/5 8/3/5 4/4/5
f 2/1/6 3/4/6 7/3/6 6/2/6
)";

TEST(RenderSurface, ObjKeepsTextureCoordinatesAndNormalsPerCorner) {
  const RenderSurface s = io::parseRenderObj("cube.obj", kCubeObj);
  EXPECT_EQ(s.V.rows(), 24);  // each corner once per face it has a normal on
  EXPECT_EQ(s.F.rows(), 12);
  ASSERT_EQ(s.UV.rows(), 24);
  ASSERT_EQ(s.N.rows(), 24);
  for (Eigen::Index f = 0; f < s.F.rows(); ++f) {
    const Vec3 a = s.V.row(s.F(f, 0)), b = s.V.row(s.F(f, 1)), c = s.V.row(s.F(f, 2));
    const Vec3 n = (b - a).cross(c - a).normalized();
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(n.dot(s.N.row(s.F(f, k))), 1.0, 1e-12) << "face " << f;  // the face's own normal
  }
  // Positions only: the corners stay shared.
  const RenderSurface plain = io::parseRenderObj("plain.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n");
  EXPECT_EQ(plain.V.rows(), 4);
  EXPECT_EQ(plain.UV.rows(), 0);
  EXPECT_EQ(plain.N.rows(), 0);
  EXPECT_THROW(io::parseRenderObj("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/4 2 3\n"), Error);
}

TEST(RenderSurface, PlyAsciiAndBinaryGiveTheSameSurface) {
  const std::string header =
      "ply\nformat FORMAT 1.0\ncomment two triangles\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
      "property float nx\nproperty float ny\nproperty float nz\nproperty float s\nproperty float t\n"
      "element face 1\nproperty list uchar int vertex_indices\nend_header\n";
  const float vertices[4][8] = {{0, 0, 0, 0, 0, 1, 0, 0}, {1, 0, 0, 0, 0, 1, 1, 0}, {1, 1, 0, 0, 0, 1, 1, 1}, {0, 1, 0, 0, 0, 1, 0, 1}};
  std::string ascii = header, binary = header;
  ascii.replace(ascii.find("FORMAT"), 6, "ascii");
  binary.replace(binary.find("FORMAT"), 6, "binary_little_endian");
  for (const auto& v : vertices) {
    for (float c : v) ascii += std::to_string(c) + " ";
    ascii += "\n";
    binary.append(reinterpret_cast<const char*>(v), sizeof v);
  }
  ascii += "4 0 1 2 3\n";
  const unsigned char count = 4;
  const int quad[4] = {0, 1, 2, 3};
  binary += static_cast<char>(count);
  binary.append(reinterpret_cast<const char*>(quad), sizeof quad);
  for (const std::string& text : {ascii, binary}) {
    const RenderSurface s = io::parsePly("quad.ply", text);
    ASSERT_EQ(s.V.rows(), 4);
    EXPECT_EQ(s.F.rows(), 2);
    ASSERT_EQ(s.UV.rows(), 4);
    ASSERT_EQ(s.N.rows(), 4);
    EXPECT_EQ(s.V(2, 0), 1.0);
    EXPECT_EQ(s.UV(2, 1), 1.0);
    EXPECT_EQ(s.N(3, 2), 1.0);
  }
  EXPECT_THROW(io::parsePly("short.ply", binary.substr(0, binary.size() - 3)), Error);
}

// A 0.4 x 0.2 x 0.2 box cage of 4 x 2 x 2 cells, and a finer surface: the same box, slightly smaller, with a
// few vertices a little outside.
struct Embedded : ::testing::Test {
  TetMesh cage = makeBox(Vec3(0.4, 0.2, 0.2), Eigen::Vector3i(4, 2, 2));
  RenderSurface fine;
  void SetUp() override {
    const TetMesh fine_box = makeBox(Vec3(0.39, 0.19, 0.19), Eigen::Vector3i(13, 7, 7));
    const SurfaceMesh s = boundarySurface(fine_box);
    fine.V = s.V;
    fine.F = s.F;
    const Vec3 centre = 0.5 * (cage.V.colwise().minCoeff() + cage.V.colwise().maxCoeff()).transpose();
    fine.V.rowwise() += (centre - 0.5 * (fine.V.colwise().minCoeff() + fine.V.colwise().maxCoeff()).transpose()).transpose();
    for (int v = 0; v < 5; ++v) fine.V.row(v) = (fine.V.row(v) - centre.transpose()) * 1.05 + centre.transpose();  // pushed out
  }
};

TEST_F(Embedded, TheBindingReproducesTheRenderMeshAtRest) {
  const int first = 7;  // the body's first vertex in the model
  const RenderMesh r = embedSurface(fine, cage.V, cage.T, first, "fine");
  ASSERT_EQ(r.vertexCount(), fine.V.rows());
  VecX x = VecX::Zero(3 * (first + cage.V.rows()));
  x.tail(cage.V.size()) = flatten(cage.V);
  const MatX3 P = embeddedPositions(r, x);
  EXPECT_LT((P - fine.V).cwiseAbs().maxCoeff(), 1e-15);
  int outside = 0;
  for (int i = 0; i < r.vertexCount(); ++i) {
    EXPECT_NEAR(r.weights[i].sum(), 1.0, 1e-14);
    for (int k = 0; k < 4; ++k) EXPECT_GE(r.tet_vertices[i][k], first);
    if (r.outside[i] > 0) {
      ++outside;
      EXPECT_LT(r.weights[i].minCoeff(), 0.0);
    } else {
      EXPECT_GE(r.weights[i].minCoeff(), -1e-9);
    }
  }
  EXPECT_GT(outside, 0) << "the pushed-out vertices are bound to the nearest tet";
}

TEST_F(Embedded, ARigidMotionOfTheCageMovesTheRenderMeshRigidly) {
  const RenderMesh r = embedSurface(fine, cage.V, cage.T, 0, "fine");
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, -0.5).normalized()).toRotationMatrix();
  const Vec3 t(0.3, -1.2, 2.5);
  MatX3 moved = (cage.V * R.transpose()).rowwise() + t.transpose();
  const MatX3 P = embeddedPositions(r, flatten(moved));
  const MatX3 expected = (fine.V * R.transpose()).rowwise() + t.transpose();
  EXPECT_LT((P - expected).cwiseAbs().maxCoeff(), 1e-14);
  // A stretch of the cage along x stretches the render mesh with it (interior vertices exactly: affine in each tet).
  MatX3 stretched = cage.V;
  stretched.col(0) *= 2.0;
  const MatX3 S = embeddedPositions(r, flatten(stretched));
  for (int i = 0; i < r.vertexCount(); ++i) EXPECT_NEAR(S(i, 0), 2.0 * fine.V(i, 0), 1e-14);
}

// Vertices outside the cage are bound to the tet of the nearest boundary face, found through a grid of
// the faces: the same distance as a search of every face, for points all around the cage, near its
// faces, edges and corners and farther out.
TEST_F(Embedded, OutsideVerticesFindTheNearestBoundaryFace) {
  const SurfaceMesh boundary = boundarySurface(cage);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> around(-0.025, 0.025), unit(0.0, 1.0);  // within a tenth of its size
  RenderSurface points;
  points.V.resize(400, 3);
  const Vec3 lo = cage.V.colwise().minCoeff(), hi = cage.V.colwise().maxCoeff();
  for (int i = 0; i < points.V.rows(); ++i) {
    Vec3 p;
    for (int k = 0; k < 3; ++k) p[k] = lo[k] + unit(rng) * (hi[k] - lo[k]) + around(rng);
    const int snapped = i % 4;  // a quarter each on the cage's planes or its edges, pushed out along one axis
    if (snapped >= 1) p[0] = i % 2 ? hi[0] + 0.01 * unit(rng) : lo[0] - 0.01 * unit(rng);
    if (snapped >= 2) p[1] = hi[1];
    points.V.row(i) = p;
  }
  points.F.resize(1, 3);
  points.F << 0, 1, 2;
  const RenderMesh r = embedSurface(points, cage.V, cage.T, 0, "points");
  int outside = 0;
  for (int i = 0; i < points.V.rows(); ++i) {
    if (r.outside[i] == 0.0) continue;
    ++outside;
    double nearest = INFINITY;
    for (int f = 0; f < boundary.F.rows(); ++f)
      nearest = std::min(nearest, pointTriangleDistance(points.V.row(i), boundary.V.row(boundary.F(f, 0)), boundary.V.row(boundary.F(f, 1)),
                                                        boundary.V.row(boundary.F(f, 2))));
    EXPECT_NEAR(r.outside[i], nearest, 1e-15) << "vertex " << i;
    EXPECT_NEAR(r.weights[i].sum(), 1.0, 1e-12);
  }
  EXPECT_GT(outside, 250);
}

TEST_F(Embedded, ARenderMeshFarFromItsCageIsRefused) {
  RenderSurface far = fine;
  far.V.col(1).array() += 1.0;
  try {
    embedSurface(far, cage.V, cage.T, 0, "far.obj");
    FAIL() << "a render mesh 1 m away was bound";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("far.obj"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("placed like the mesh"), std::string::npos) << e.what();
  }
}

TEST(EmbeddedScene, ARenderMeshIsDrawnAndExportedButNotSimulated) {
  const fs::path dir = test::scratchDir("render_scene");
  writeFileBytes(dir / "cube.obj", kCubeObj);
  // The cube's surface over a box cage of the same size, scaled and moved like the cage.
  const std::string scene = R"({"version": 1, "bodies": [{"name": "cube", "shape": {"type": "box", "size": [1, 1, 1], "cells": [2, 2, 2]},
    "render_mesh": "cube.obj", "translate": [0, 0.5, 0], "scale": 0.5, "materials": [{"model": "neo_hookean"}]}]})";
  Simulation with(parseScene(scene, dir / "scene.json"));
  std::string plain_scene = scene;
  plain_scene.erase(plain_scene.find("\"render_mesh\": \"cube.obj\", "), std::string("\"render_mesh\": \"cube.obj\", ").size());
  Simulation without(parseScene(plain_scene, dir / "plain.json"));
  ASSERT_NE(with.model().bodies[0].render, nullptr);
  EXPECT_EQ(with.scene().bodies[0].render_source, "cube.obj");
  EXPECT_EQ(with.model().vertexCount(), without.model().vertexCount());
  for (int f = 0; f < 3; ++f) with.step(), without.step();
  EXPECT_EQ(with.positions(), without.positions()) << "the render mesh does not change the simulation";

  const std::vector<DrawnSurface> drawn = drawnSurfaces(with.model());
  ASSERT_EQ(drawn.size(), 1u);
  EXPECT_EQ(drawn[0].vertexCount(), 24);
  EXPECT_EQ(drawn[0].uv.rows(), 24);
  // Placed like the box: scaled by 0.5 about the origin, then moved up 0.5.
  MatX3 rest;
  drawnPositions(drawn[0], with.model().rest, rest);
  EXPECT_NEAR(rest.col(1).minCoeff(), 0.25, 1e-12);
  EXPECT_NEAR(rest.col(1).maxCoeff(), 0.75, 1e-12);
  writeObj(dir / "frame.obj", with);
  const std::string obj = readFileBytes(dir / "frame.obj");
  EXPECT_NE(obj.find("\nvt "), std::string::npos);
  EXPECT_NE(obj.find("/1/1 "), std::string::npos) << "faces name positions, texture coordinates and normals";

  const std::string cloth = R"({"version": 1, "bodies": [{"shape": {"type": "cloth", "size": [1, 1], "vertices": [3, 3]}, "render_mesh": "cube.obj",
    "materials": [{"region": "stretch", "model": "spring"}, {"region": "bend", "model": "spring"}]}]})";
  EXPECT_THROW(parseScene(cloth, dir / "cloth.json"), Error);
  const std::string missing = R"({"version": 1, "bodies": [{"shape": {"type": "box", "size": [1, 1, 1], "cells": [1, 1, 1]}, "render_mesh": "nope.obj",
    "materials": [{"model": "neo_hookean"}]}]})";
  try {
    parseScene(missing, dir / "missing.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nope.obj"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace qnsim
