// Messy meshes from other tools: what can be repaired without changing the physics is
// repaired with one warning line (slivers and unused vertices dropped, shared positions counted), odd
// region tags take the default material, and only what cannot be simulated is refused.
#include <gtest/gtest.h>

#include <fstream>

#include "core/mesh/mesh_check.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/shapes.h"
#include "qnsim/error.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

// A TetGen .node/.ele pair: the mesh, plus extra vertices and extra tets (zero-based) appended.
std::filesystem::path writeMessy(const std::string& name, const TetMesh& mesh, const std::vector<Vec3>& extra_vertices,
                                 const std::vector<Eigen::Vector4i>& extra_tets, const std::vector<int>& tags = {}) {
  const auto dir = test::scratchDir("mesh_repair");
  std::ofstream node(dir / (name + ".node")), ele(dir / (name + ".ele"));
  node.precision(17);
  node << mesh.V.rows() + extra_vertices.size() << " 3 0 0\n";
  for (Eigen::Index i = 0; i < mesh.V.rows(); ++i) node << i << ' ' << mesh.V(i, 0) << ' ' << mesh.V(i, 1) << ' ' << mesh.V(i, 2) << '\n';
  for (size_t i = 0; i < extra_vertices.size(); ++i)
    node << mesh.V.rows() + i << ' ' << extra_vertices[i].x() << ' ' << extra_vertices[i].y() << ' ' << extra_vertices[i].z() << '\n';
  ele << mesh.T.rows() + extra_tets.size() << " 4 " << (tags.empty() ? 0 : 1) << '\n';
  auto write = [&](size_t e, const Eigen::Vector4i& t) {
    ele << e << ' ' << t[0] << ' ' << t[1] << ' ' << t[2] << ' ' << t[3];
    if (!tags.empty()) ele << ' ' << tags[e];
    ele << '\n';
  };
  for (Eigen::Index e = 0; e < mesh.T.rows(); ++e) write(e, mesh.T.row(e).transpose());
  for (size_t e = 0; e < extra_tets.size(); ++e) write(mesh.T.rows() + e, extra_tets[e]);
  return dir / (name + ".ele");
}

const TetMesh kBox = makeBox(Vec3(1, 1, 1), Eigen::Vector3i(4, 4, 4));  // 125 vertices, 320 tets

TEST(MeshRepair, SliversAndUnusedVerticesAreDroppedWithOneWarning) {
  const int n = static_cast<int>(kBox.V.rows());
  // An unused vertex far away, and a sliver: three corners of a boundary face and a point 1e-15 above
  // its plane (a volume of about 1e-17 of the model's).
  const Vec3 a = kBox.V.row(0), b = kBox.V.row(1), c = kBox.V.row(5);
  const Vec3 above = (a + b + c) / 3 + Vec3(0, 0, 1e-15);
  const auto path = writeMessy("slivers", kBox, {Vec3(9, 9, 9), above}, {Eigen::Vector4i(0, 1, 5, n + 1)});
  test::ExpectWarnings warnings;
  const TetMesh mesh = readTetMesh(path);
  EXPECT_EQ(mesh.T.rows(), kBox.T.rows());
  EXPECT_EQ(mesh.V.rows(), kBox.V.rows());
  EXPECT_EQ(mesh.V, kBox.V) << "the kept vertices keep their order";
  ASSERT_EQ(warnings.messages().size(), 1u);
  const std::string& w = warnings.messages()[0];
  EXPECT_NE(w.find("slivers.ele: repaired: 1 sliver tetrahedron dropped, 2 unused vertices dropped"), std::string::npos) << w;
}

TEST(MeshRepair, TooManySliversAreABrokenMesh) {
  std::vector<Eigen::Vector4i> slivers;
  std::vector<Vec3> points;
  const int n = static_cast<int>(kBox.V.rows());
  for (int i = 0; i < 4; ++i) {  // 4 of 324 tets: more than 1%
    points.push_back(Vec3(0.1 * i, 0.1, -0.5));
    slivers.push_back(Eigen::Vector4i(0, 1, 2, n + i));
  }
  const auto path = writeMessy("many_slivers", kBox, points, slivers);
  try {
    readTetMesh(path);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("many_slivers.ele:322: degenerate tetrahedron"), std::string::npos) << m;
    EXPECT_NE(m.find("4 of the 324 tetrahedra are degenerate"), std::string::npos) << m;
  }
}

TEST(MeshRepair, OverlappingTetsAreABrokenMesh) {
  TetMesh mesh;
  mesh.V.resize(6, 3);
  mesh.V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.2, 0.2, 0.5, 0.2, 0.2, -0.5;
  mesh.T.resize(2, 4);
  mesh.T << 0, 1, 2, 3, 0, 1, 2, 4;  // both above their common face z = 0
  try {
    checkTetMesh(mesh, "m");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "m: tetrahedron 1: tetrahedron overlaps the one at m: tetrahedron 0 (both lie on the same side of their "
                           "common face, vertices 0, 1, 2)");
  }
  mesh.T.row(1) << 1, 0, 2, 5;  // below the face: the two tets meet there, as they should
  EXPECT_NO_THROW(checkTetMesh(mesh, "m"));
}

TEST(MeshRepair, SharedPositionsAreCountedAndKeptApart) {
  // The centre vertex written twice; the copy is used by one of its tets in place of the original (a cut).
  const int n = static_cast<int>(kBox.V.rows());
  int centre = 0;
  for (int i = 0; i < n; ++i)
    if ((kBox.V.row(i) - kBox.V.colwise().mean()).norm() < (kBox.V.row(centre) - kBox.V.colwise().mean()).norm()) centre = i;
  TetMesh cut = kBox;
  int user = 0;
  while ((cut.T.row(user).array() != centre).all()) ++user;
  for (int k = 0; k < 4; ++k)
    if (cut.T(user, k) == centre) cut.T(user, k) = n;
  const auto path = writeMessy("cut", cut, {Vec3(kBox.V.row(centre))}, {});
  test::ExpectWarnings warnings;
  const TetMesh mesh = readTetMesh(path);
  EXPECT_EQ(mesh.V.rows(), n + 1);
  ASSERT_EQ(warnings.messages().size(), 1u);
  EXPECT_NE(warnings.messages()[0].find("1 vertex shares its position with another (kept apart)"), std::string::npos)
      << warnings.messages()[0];
}

TEST(MeshRepair, OddRegionTagsTakeTheDefaultMaterial) {
  std::vector<int> tags(kBox.T.rows());
  for (size_t e = 0; e < tags.size(); ++e) tags[e] = e % 3 == 0 ? -5 : e % 3 == 1 ? 2000000000 : 7;
  const auto path = writeMessy("tags", kBox, {}, {}, tags);
  const Scene scene = parseScene(R"({"version": 1, "bodies": [{"name": "b", "mesh": ")" + path.string() + R"(",
      "materials": [{"model": "neo_hookean"}, {"region": 7, "model": "corotated"}]}]})",
                                 "tags.json");
  Simulation sim(scene);
  const Model& model = sim.model();
  ASSERT_EQ(model.regions.size(), 2u);
  for (int e = 0; e < model.tets.size(); ++e) EXPECT_EQ(model.tets.region[test::modelTet(model.bodies[0], e)], e % 3 == 2 ? 1 : 0) << e;
  sim.step();
  EXPECT_TRUE(sim.positions().allFinite());
}

}  // namespace
}  // namespace qnsim
