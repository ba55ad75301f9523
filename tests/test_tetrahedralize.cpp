// tetrahedralize(): the tetgen program on small closed surfaces, its cache, and its failures.
// Skipped where the tetgen program is not installed (apt install tetgen).
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/common/process.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/surface.h"
#include "core/mesh/tetrahedralize.h"
#include "tests/mesh_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

namespace fs = std::filesystem;
using test::errorOf;

SurfaceMesh unitCubeSurface() { return boundarySurface(test::fiveTetCube()); }

std::vector<fs::path> cacheFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
  return files;
}

// Sets an environment variable for the scope of a test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~ScopedEnv() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class Tetgen : public ::testing::Test {
 protected:
  void SetUp() override {
    if (findProgram("tetgen").empty()) GTEST_SKIP() << "the tetgen program is not installed";
    options_.cache_dir = test::scratchDir(std::string("tetgen_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  TetgenOptions options_;
};

TEST_F(Tetgen, MeshesAClosedCubeAndCachesTheResult) {
  const TetMesh mesh = tetrahedralize(unitCubeSurface(), options_);
  EXPECT_GE(mesh.T.rows(), 5);
  EXPECT_NEAR(test::totalVolume(mesh), 1.0, 1e-12);
  EXPECT_NEAR(test::enclosedVolume(mesh.V, boundaryFaces(mesh.T)), 1.0, 1e-12);
  EXPECT_EQ(mesh.region, Eigen::VectorXi::Zero(mesh.T.rows()));

  const std::vector<fs::path> cached = cacheFiles(options_.cache_dir);
  ASSERT_EQ(cached.size(), 1u);
  EXPECT_EQ(cached[0].extension(), ".mesh");
  EXPECT_EQ(cached[0].stem().string().size(), 16u) << "a 64-bit hex key";

  // Plant a recognisably different mesh under the same key: a second call must return it, which
  // proves tetgen did not run again.
  TetMesh planted = mesh;
  planted.V *= 2.0;
  writeMedit(cached[0], planted);
  EXPECT_NEAR(test::totalVolume(tetrahedralize(unitCubeSurface(), options_)), 8.0, 1e-12);
}

TEST_F(Tetgen, OptionsArePartOfTheCacheKey) {
  const TetMesh coarse = tetrahedralize(unitCubeSurface(), options_);
  options_.max_volume = 0.01;
  const TetMesh fine = tetrahedralize(unitCubeSurface(), options_);
  EXPECT_GE(fine.T.rows(), 100);
  EXPECT_GT(fine.T.rows(), coarse.T.rows());
  EXPECT_NEAR(test::totalVolume(fine), 1.0, 1e-12);
  for (Eigen::Index e = 0; e < fine.T.rows(); ++e) EXPECT_LE(test::tetVolume(fine.V, fine.T.row(e)), 0.01 + 1e-12);
  EXPECT_EQ(cacheFiles(options_.cache_dir).size(), 2u);
}

TEST_F(Tetgen, DamagedCacheEntryIsRecomputed) {
  tetrahedralize(unitCubeSurface(), options_);
  const fs::path entry = cacheFiles(options_.cache_dir).at(0);
  test::writeText(entry, "MeshVersionFormatted 2\nVertices 3\n");
  EXPECT_NEAR(test::totalVolume(tetrahedralize(unitCubeSurface(), options_)), 1.0, 1e-12);
  EXPECT_NO_THROW(readTetMesh(entry));
}

TEST_F(Tetgen, ReadTetMeshTetrahedralizesSurfaceFiles) {
  for (const char* name : {"cube.obj", "cube.off", "cube.stl"}) {
    SCOPED_TRACE(name);
    EXPECT_NEAR(test::totalVolume(readTetMesh(test::testDataDir() / "meshes" / name, options_)), 1.0, 1e-12);
  }
}

TEST_F(Tetgen, OpenSurfaceIsRejectedInPlainWords) {
  SurfaceMesh open = unitCubeSurface();
  open.F.conservativeResize(open.F.rows() - 1, 3);
  const std::string message = errorOf([&] { tetrahedralize(open, options_); });
  EXPECT_TRUE(message.starts_with("cannot tetrahedralize: the surface is not closed: 3 edges belong to only one triangle")) << message;

  const fs::path path = options_.cache_dir / "open.obj";
  writeObj(path, open);
  const std::string from_file = errorOf([&] { readTetMesh(path, options_); });
  EXPECT_TRUE(from_file.starts_with(path.string() + ": cannot tetrahedralize: the surface is not closed")) << from_file;
}

TEST_F(Tetgen, NonManifoldSurfaceIsRejected) {
  // Two cubes sharing one edge (vertices merged): that edge has four triangles.
  const SurfaceMesh cube = unitCubeSurface();
  SurfaceMesh pair;
  pair.V.resize(16, 3);
  pair.V << cube.V, cube.V.rowwise() + Eigen::RowVector3d(1, 1, 0);
  pair.F.resize(24, 3);
  pair.F << cube.F, cube.F.array() + 8;
  // Cube 2's corners 0 (1,1,0) and 4 (1,1,1) coincide with cube 1's corners 3 and 7.
  for (Eigen::Index i = 0; i < pair.F.size(); ++i) {
    int& v = pair.F.data()[i];
    v = v == 8 ? 3 : v == 12 ? 7 : v;
  }
  const std::string message = errorOf([&] { tetrahedralize(pair, options_); });
  EXPECT_TRUE(message.starts_with("cannot tetrahedralize: the surface is not manifold: 1 edge is shared by more than two triangles")) << message;
}

TEST_F(Tetgen, SelfIntersectingSurfaceQuotesTetgen) {
  const SurfaceMesh cube = unitCubeSurface();
  SurfaceMesh overlapping;
  overlapping.V.resize(16, 3);
  overlapping.V << cube.V, cube.V.array() + 0.5;
  overlapping.F.resize(24, 3);
  overlapping.F << cube.F, cube.F.array() + 8;
  const std::string message = errorOf([&] { tetrahedralize(overlapping, options_); });
  EXPECT_TRUE(message.starts_with("tetgen could not tetrahedralize the surface: it aborted")) << message;
  EXPECT_NE(message.find("the surface intersects itself"), std::string::npos) << message;
  EXPECT_NE(message.find("tetgen says: Facet #"), std::string::npos) << message;
  EXPECT_EQ(message.find("terminate called"), std::string::npos) << message;
  EXPECT_TRUE(cacheFiles(options_.cache_dir).empty()) << "failures are not cached";
}

TEST_F(Tetgen, DegenerateTrianglesAreRejected) {
  SurfaceMesh flat = unitCubeSurface();
  flat.V.col(2).setZero();
  const std::string message = errorOf([&] { tetrahedralize(flat, options_); });
  EXPECT_TRUE(message.starts_with("cannot tetrahedralize: triangle ")) << message;
  EXPECT_NE(message.find(" is degenerate (zero area)"), std::string::npos) << message;
}

TEST_F(Tetgen, RunsAreStoppedAfterTheTimeout) {
  options_.max_volume = 1e-7;  // millions of tets: far longer than the timeout
  options_.timeout_seconds = 0.3;
  const std::string message = errorOf([&] { tetrahedralize(unitCubeSurface(), options_); });
  EXPECT_TRUE(message.starts_with("tetgen could not tetrahedralize the surface: it did not finish within 0.3 s")) << message;
}

TEST_F(Tetgen, BadOptionsAreRejectedBeforeRunning) {
  options_.max_radius_edge_ratio = 0.5;
  EXPECT_TRUE(errorOf([&] { tetrahedralize(unitCubeSurface(), options_); }).starts_with("tetgen max_radius_edge_ratio must be at least 1"));
  options_.max_radius_edge_ratio = 2;
  options_.max_volume = -1;
  EXPECT_TRUE(errorOf([&] { tetrahedralize(unitCubeSurface(), options_); }).starts_with("tetgen max_volume must be 0"));
}

TEST_F(Tetgen, CacheWriteFailureOnlyWarns) {
  options_.cache_dir = test::writeText(options_.cache_dir / "a_file", "x") / "cache";  // cannot be a folder
  test::ExpectWarnings warnings;
  EXPECT_NEAR(test::totalVolume(tetrahedralize(unitCubeSurface(), options_)), 1.0, 1e-12);
  ASSERT_EQ(warnings.messages().size(), 1u);
  EXPECT_TRUE(warnings.messages()[0].starts_with("could not cache the tetgen result (the mesh is fine)")) << warnings.messages()[0];
}

// Not a fixture test: the message matters most where tetgen is missing.
TEST(TetgenProgram, MissingProgramIsNamedWithItsPackage) {
  const fs::path empty = test::scratchDir("empty_path");
  ScopedEnv path("PATH", empty.c_str());
  TetgenOptions options;
  options.cache_dir = test::scratchDir("missing_cache");
  EXPECT_EQ(errorOf([&] { tetrahedralize(unitCubeSurface(), options); }), "tetgen program not found; install the Debian package tetgen");
}

TEST(TetgenProgram, CacheFolderFollowsXdgThenHome) {
  TetgenOptions options;
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(tetgenCacheDir(options), fs::path("/xdg/qnsim/tetgen"));
  }
  {
    ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(tetgenCacheDir(options), fs::path("/home/someone/.cache/qnsim/tetgen"));
  }
  options.cache_dir = "/elsewhere";
  EXPECT_EQ(tetgenCacheDir(options), fs::path("/elsewhere"));
}

}  // namespace
}  // namespace qnsim
