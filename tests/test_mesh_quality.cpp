// Surface in, simulation out: the mesh quality report (core/mesh/quality.h), tetgen's resolution and
// dihedral-angle controls, and `qnsim mesh`.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/common/files.h"
#include "core/common/process.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/quality.h"
#include "core/mesh/shapes.h"
#include "core/mesh/surface.h"
#include "core/mesh/tetgen_parameters.h"
#include "core/mesh/tetrahedralize.h"
#include "core/scene/bare_mesh_scene.h"
#include "core/scene/scene_parser.h"
#include "tests/mesh_fixtures.h"
#include "qnsim/error.h"
#include "qnsim/scene.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

TEST(MeshQuality, ARegularTetAndASliver) {
  const TetQuality regular = tetQuality(Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1));
  EXPECT_NEAR(regular.min_dihedral, std::acos(1.0 / 3.0) * 180 / M_PI, 1e-9);  // 70.53 degrees
  EXPECT_NEAR(regular.max_dihedral, regular.min_dihedral, 1e-9);
  EXPECT_NEAR(regular.radius_edge, std::sqrt(6.0) / 4.0, 1e-12);
  // Four nearly coplanar corners: a sliver, with a dihedral angle near 0 and one near 180.
  const TetQuality sliver = tetQuality(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0.01));
  EXPECT_LT(sliver.min_dihedral, 2.0);
  EXPECT_GT(sliver.max_dihedral, 170.0);
}

TEST(MeshQuality, ReportCountsTetsShellsAndTheWorst) {
  TetMesh two = makeBox(Vec3(1, 1, 1), Eigen::Vector3i(2, 2, 2));
  const TetMesh other = makeBox(Vec3(1, 1, 1), Eigen::Vector3i(1, 1, 1));
  const Eigen::Index n = two.V.rows(), t = two.T.rows();
  two.V.conservativeResize(n + other.V.rows(), 3);
  two.V.bottomRows(other.V.rows()) = other.V.rowwise() + Vec3(3, 0, 0).transpose();
  two.T.conservativeResize(t + other.T.rows(), 4);
  two.T.bottomRows(other.T.rows()) = other.T.array() + static_cast<int>(n);
  const MeshQualityReport r = meshQuality(two);
  EXPECT_EQ(r.tets, 45);
  EXPECT_EQ(r.shells, 2);
  EXPECT_NEAR(r.volume, 2.0, 1e-12);
  int counted = 0;
  for (int c : r.histogram) counted += c;
  EXPECT_EQ(counted, 45);
  ASSERT_EQ(r.worst.size(), 5u);
  EXPECT_DOUBLE_EQ(r.worst_quality.front().min_dihedral, r.min_dihedral);
  const std::string text = describeQuality(r);
  EXPECT_NE(text.find("45 tets"), std::string::npos) << text;
  EXPECT_NE(text.find("2 shells"), std::string::npos) << text;
}

class TetgenControls : public ::testing::Test {
 protected:
  void SetUp() override {
    if (findProgram("tetgen").empty()) GTEST_SKIP() << "the tetgen program is not installed";
    options_.cache_dir = test::scratchDir("tetgen_controls");
  }
  TetgenOptions options_;
  // A 1 x 0.5 x 0.5 box surface cut into a grid (volume 0.25 m^3).
  SurfaceMesh surface_ = boundarySurface(makeBox(Vec3(1, 0.5, 0.5), Eigen::Vector3i(8, 4, 4)));
};

TEST_F(TetgenControls, TargetCountEdgeLengthAndSmallestDihedralAngle) {
  options_.target_tets = 3000;
  const TetMesh counted = tetrahedralize(surface_, options_);
  EXPECT_GT(counted.T.rows(), 1000);
  EXPECT_LT(counted.T.rows(), 9000);
  options_.target_tets = 0;
  options_.edge_length = 0.1;
  const TetMesh edged = tetrahedralize(surface_, options_);
  options_.edge_length = 0.05;
  const TetMesh finer = tetrahedralize(surface_, options_);
  EXPECT_GT(finer.T.rows(), 4 * edged.T.rows()) << "half the edge length, about 8 times the tets";
  options_.min_dihedral_degrees = 18;
  const MeshQualityReport bounded = meshQuality(tetrahedralize(surface_, options_));
  EXPECT_GT(bounded.min_dihedral, 12.0) << describeQuality(bounded);
  options_.min_dihedral_degrees = 45;
  EXPECT_THROW(tetrahedralize(surface_, options_), Error);
}

TEST_F(TetgenControls, QnsimMeshReportsAndWrites) {
  const std::filesystem::path dir = test::scratchDir("qnsim_mesh");
  writeOff(dir / "box.off", surface_);
  const std::string command = std::string(QNSIM_EXECUTABLE) + " mesh " + (dir / "box.off").string() + " --tets 2000 --min-dihedral 10 --out " +
                              (dir / "box.mesh").string() + " > " + (dir / "report.txt").string();
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string report = readFileBytes(dir / "report.txt");
  EXPECT_NE(report.find("1 shell,"), std::string::npos) << report;
  EXPECT_NE(report.find("worst tets"), std::string::npos) << report;
  EXPECT_GT(readTetMesh(dir / "box.mesh").T.rows(), 500);
  // An open surface: the message names the problem.
  SurfaceMesh open = surface_;
  open.F.conservativeResize(open.F.rows() - 1, 3);
  writeOff(dir / "open.off", open);
  const std::string bad = std::string(QNSIM_EXECUTABLE) + " mesh " + (dir / "open.off").string() + " 2> " + (dir / "err.txt").string();
  EXPECT_NE(std::system(bad.c_str()), 0);
  EXPECT_NE(readFileBytes(dir / "err.txt").find("open.off"), std::string::npos) << readFileBytes(dir / "err.txt");
}

// qnsim run takes a surface with the same flags, reports the mesh's quality before simulating, and
// refuses them for a scene file (whose bodies carry their own "tetgen").
TEST_F(TetgenControls, QnsimRunTetrahedralisesASurfaceWithTheFlags) {
  const std::filesystem::path dir = test::scratchDir("qnsim_run_surface");
  writeOff(dir / "box.off", surface_);
  auto run = [&](const std::string& flags, const std::string& out) {
    const std::string command = std::string(QNSIM_EXECUTABLE) + " run " + (dir / "box.off").string() + " --frames 2 " + flags + " > " +
                                (dir / out).string() + " 2>&1";
    const int status = std::system(command.c_str());
    return std::pair(status, readFileBytes(dir / out));
  };
  const auto [coarse_status, coarse] = run("--tets 300", "coarse.txt");
  const auto [fine_status, fine] = run("--edge 0.05 --min-dihedral 10", "fine.txt");
  ASSERT_EQ(coarse_status, 0) << coarse;
  ASSERT_EQ(fine_status, 0) << fine;
  for (const std::string* report : {&coarse, &fine}) {
    EXPECT_NE(report->find("worst tets"), std::string::npos) << *report;
    EXPECT_LT(report->find("worst tets"), report->find("ms/frame")) << "the quality comes before the run: " << *report;
  }
  EXPECT_NE(coarse.substr(0, coarse.find("worst tets")), fine.substr(0, fine.find("worst tets")));
  const std::string scene = (test::sourceDir() / "scenes" / "cloth.json").string();
  const std::string refused = std::string(QNSIM_EXECUTABLE) + " run " + scene + " --tets 300 2> " + (dir / "err.txt").string();
  EXPECT_NE(std::system(refused.c_str()), 0);
  EXPECT_NE(readFileBytes(dir / "err.txt").find("\"tetgen\""), std::string::npos) << readFileBytes(dir / "err.txt");
}

// A scene body's "tetgen" object is read through the same declarations as the flags: each key checked
// with its range and type, an unknown one named with the keys there are.
TEST(TetgenParameters, TheSceneFilesObjectIsCheckedByTheDeclarations) {
  const MeshLoader box = [](const std::filesystem::path&, const TetgenOptions&) { return makeBox(Vec3::Ones(), Eigen::Vector3i::Ones()); };
  const auto scene = [](const std::string& tetgen) {
    return R"({"version": 1, "bodies": [{"mesh": "m.obj", "tetgen": )" + tetgen + R"(, "materials": [{"model": "arap"}]}]})";
  };
  TetgenOptions read;
  const MeshLoader keep = [&](const std::filesystem::path&, const TetgenOptions& o) {
    read = o;
    return makeBox(Vec3::Ones(), Eigen::Vector3i::Ones());
  };
  parseScene(scene(R"({"tets": 5000, "quality": 1.8, "min_dihedral": 12})"), "s.json", {}, keep);
  EXPECT_EQ(read.target_tets, 5000);
  EXPECT_EQ(read.max_radius_edge_ratio, 1.8);
  EXPECT_EQ(read.min_dihedral_degrees, 12);
  const std::string unknown = test::errorOf([&] { parseScene(scene(R"({"tet": 5})"), "s.json", {}, box); });
  EXPECT_NE(unknown.find("/bodies/0/tetgen/tet: unknown field (expected one of: tets, edge, max_volume, quality, min_dihedral, cage)"),
            std::string::npos)
      << unknown;
  const std::string fraction = test::errorOf([&] { parseScene(scene(R"({"tets": 2.5})"), "s.json", {}, box); });
  EXPECT_NE(fraction.find("/bodies/0/tetgen/tets"), std::string::npos) << fraction;
  const std::string range = test::errorOf([&] { parseScene(scene(R"({"quality": 0.5})"), "s.json", {}, box); });
  EXPECT_NE(range.find("[1, 10]"), std::string::npos) << range;
  for (const TetgenParameter& p : tetgenParameters()) {  // each default is the options' own, and inside its range
    EXPECT_EQ(p.get(TetgenOptions{}), p.default_value) << p.key;
    EXPECT_NO_THROW(checkParameterValue(p, p.default_value)) << p.key;
  }
}

// A surface opened with tetgen controls saves as a scene that fills it the same way when read back.
TEST_F(TetgenControls, ABareSurfaceSavesWithItsControls) {
  const std::filesystem::path dir = test::scratchDir("bare_surface_saved");
  writeOff(dir / "box.off", surface_);
  options_.target_tets = 400, options_.min_dihedral_degrees = 10;
  const Scene opened = sceneForBareMesh(dir / "box.off", {}, options_);
  writeScene(opened, dir / "box.json");
  const std::string text = readFileBytes(dir / "box.json");
  EXPECT_NE(text.find("\"tets\": 400"), std::string::npos) << text;
  EXPECT_NE(text.find("\"min_dihedral\": 10"), std::string::npos) << text;
  EXPECT_EQ(text.find("\"quality\""), std::string::npos) << "defaults are not written: " << text;
  const Scene back = loadScene(dir / "box.json");
  EXPECT_EQ(back.bodies.front().mesh.T.rows(), opened.bodies.front().mesh.T.rows());
  EXPECT_NE(opened.bodies.front().mesh.T.rows(), sceneForBareMesh(dir / "box.off").bodies.front().mesh.T.rows())
      << "the controls made another mesh than tetgen's defaults";
}

}  // namespace
}  // namespace qnsim
