// Mesh readers and writers: the hand-written samples in tests/data/meshes, round trips through every
// writer, and broken files, whose errors must name the file and the line.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <sstream>

#include "core/common/timer.h"
#include "core/mesh/mesh_io.h"
#include "tests/mesh_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

namespace fs = std::filesystem;
using test::errorOf;
using test::withLine;
using test::writeText;

fs::path sample(const std::string& name) { return test::testDataDir() / "meshes" / name; }

void expectFiveTetCube(const TetMesh& mesh, const Eigen::VectorXi& regions) {
  const TetMesh expected = test::fiveTetCube();
  EXPECT_EQ(mesh.V, expected.V);
  EXPECT_EQ(mesh.T, expected.T);
  EXPECT_EQ(mesh.region, regions);
}

Eigen::VectorXi regions(std::initializer_list<int> tags) {
  Eigen::VectorXi r(static_cast<Eigen::Index>(tags.size()));
  std::copy(tags.begin(), tags.end(), r.data());
  return r;
}

// Cube surfaces read from any format: 8 corners, 12 outward triangles enclosing volume 1.
void expectUnitCubeSurface(const SurfaceMesh& s) {
  EXPECT_EQ(s.V.rows(), 8);
  EXPECT_EQ(s.F.rows(), 12);
  EXPECT_NEAR(test::enclosedVolume(s.V, s.F), 1.0, 1e-12);
}

// ---- Samples --------------------------------------------------------------------------------------

TEST(MeshIo, ReadsTetgenSampleFromEitherFile) {
  expectFiveTetCube(readTetMesh(sample("cube5.node")), regions({7, 7, 7, 7, 9}));
  expectFiveTetCube(readTetMesh(sample("cube5.ele")), regions({7, 7, 7, 7, 9}));
}

TEST(MeshIo, ReadsMeditSample) { expectFiveTetCube(readTetMesh(sample("cube5.mesh")), regions({7, 7, 7, 7, 9})); }

TEST(MeshIo, ReadsGmshV2SampleWithSparseNodeTagsAndPhysicalRegions) {
  expectFiveTetCube(readTetMesh(sample("cube5_v2.msh")), regions({7, 7, 7, 7, 9}));
}

TEST(MeshIo, ReadsGmshV41SampleWithEntityPhysicalGroups) {
  // Volume entity 1 belongs to physical group 7; entity 2 has none, so its tag is the region.
  expectFiveTetCube(readTetMesh(sample("cube5_v41.msh")), regions({7, 7, 7, 7, 2}));
}

TEST(MeshIo, ReadsGmshV40) {
  const fs::path dir = test::scratchDir("gmsh40");
  std::ostringstream text;
  text << "$MeshFormat\n4 0 8\n$EndMeshFormat\n$Entities\n0 0 0 1\n1 0 0 0 1 1 1 1 5 0\n$EndEntities\n";
  text << "$Nodes\n1 8\n1 3 0 8\n";
  const MatX3 V = test::cubeCorners();
  for (int i = 0; i < 8; ++i) text << i + 1 << " " << V.row(i) << "\n";
  text << "$EndNodes\n$Elements\n1 5\n1 3 4 5\n1 1 2 3 5\n2 4 3 2 8\n3 6 5 8 2\n4 7 8 5 3\n5 2 3 5 8\n$EndElements\n";
  expectFiveTetCube(readTetMesh(writeText(dir / "cube.msh", text.str())), regions({5, 5, 5, 5, 5}));
}

TEST(MeshIo, ReadsSurfaceSamples) {
  for (const char* name : {"cube.obj", "cube.off", "cube.stl"}) {
    SCOPED_TRACE(name);
    expectUnitCubeSurface(readSurfaceMesh(sample(name)));
  }
}

TEST(MeshIo, ReadsBinaryStlAndMergesCorners) {
  const SurfaceMesh cube = readSurfaceMesh(sample("cube.stl"));
  std::string bytes(80, ' ');
  std::memcpy(bytes.data(), "solid but binary", 16);  // exporters do this; the size decides
  const std::uint32_t n = static_cast<std::uint32_t>(cube.F.rows());
  bytes.append(reinterpret_cast<const char*>(&n), 4);
  for (Eigen::Index f = 0; f < cube.F.rows(); ++f) {
    float record[12] = {};
    for (int k = 0; k < 3; ++k)
      for (int c = 0; c < 3; ++c) record[3 + 3 * k + c] = static_cast<float>(cube.V(cube.F(f, k), c));
    bytes.append(reinterpret_cast<const char*>(record), sizeof record);
    bytes.append(2, '\0');
  }
  const fs::path path = writeText(test::scratchDir("stl_binary") / "cube.stl", bytes);
  const SurfaceMesh read = readSurfaceMesh(path);
  expectUnitCubeSurface(read);
  EXPECT_EQ(read.F, cube.F);
}

TEST(MeshIo, DropsUnusedMidEdgeNodesOfTenNodeTets) {
  const fs::path dir = test::scratchDir("ten_node");
  const TetMesh cube = test::fiveTetCube();
  std::ostringstream node, ele;
  node << "9 3 0 0\n";
  for (int i = 0; i < 8; ++i) node << i << " " << cube.V.row(i) << "\n";
  node << "8 0.5 0 0\n";  // a mid-edge node
  ele << "5 10 1\n";
  for (int e = 0; e < 5; ++e) ele << e << " " << cube.T.row(e) << " 8 8 8 8 8 8 " << cube.region[e] << "\n";
  writeText(dir / "q.node", node.str());
  expectFiveTetCube(readTetMesh(writeText(dir / "q.ele", ele.str())), cube.region);
}

TEST(MeshIo, FlipsAllNegativeMeshesToPositive) {
  TetMesh flipped = test::fiveTetCube();
  flipped.T.col(0).swap(flipped.T.col(1));
  const fs::path dir = test::scratchDir("flip");
  writeMedit(dir / "f.mesh", flipped);
  const TetMesh read = readTetMesh(dir / "f.mesh");
  EXPECT_NEAR(test::totalVolume(read), 1.0, 1e-12);
  for (Eigen::Index e = 0; e < read.T.rows(); ++e) EXPECT_GT(test::tetVolume(read.V, read.T.row(e)), 0);
}

// ---- Round trips ----------------------------------------------------------------------------------

// Coordinates with all 53 bits in use, so a writer that rounds cannot pass.
TetMesh jitteredCube() {
  TetMesh mesh = test::fiveTetCube();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.1, 0.1);
  for (Eigen::Index i = 0; i < mesh.V.size(); ++i) mesh.V.data()[i] = (mesh.V.data()[i] + jitter(rng)) * 1e-3;
  mesh.V(0, 0) = -0.0;
  mesh.V(7, 2) = 1.0000000000000002e-3;  // one ulp above 1e-3
  mesh.region << -3, 0, 7, 2147483647, 9;
  return mesh;
}

void expectSameTetMesh(const TetMesh& a, const TetMesh& b) {
  EXPECT_EQ(a.V, b.V);  // bit-exact
  EXPECT_EQ(a.T, b.T);
  EXPECT_EQ(a.region, b.region);
}

TEST(MeshIo, NodeEleRoundTripIsExact) {
  const TetMesh mesh = jitteredCube();
  const fs::path dir = test::scratchDir("rt_node");
  writeNodeEle(dir / "m", mesh);
  expectSameTetMesh(readTetMesh(dir / "m.node"), mesh);
  writeNodeEle(dir / "n.ele", mesh);  // the extension of either file names the pair too
  expectSameTetMesh(readTetMesh(dir / "n.node"), mesh);
}

TEST(MeshIo, NodeEleWithoutRegionsWritesNoAttribute) {
  TetMesh mesh = test::fiveTetCube();
  mesh.region.setZero();
  const fs::path dir = test::scratchDir("rt_node0");
  writeNodeEle(dir / "m", mesh);
  EXPECT_NE(test::readText(dir / "m.ele").find("5 4 0\n"), std::string::npos);
  expectSameTetMesh(readTetMesh(dir / "m.ele"), mesh);
}

TEST(MeshIo, MeditRoundTripIsExactAndCarriesTheBoundary) {
  const TetMesh mesh = jitteredCube();
  const fs::path path = test::scratchDir("rt_medit") / "m.mesh";
  writeMedit(path, mesh);
  expectSameTetMesh(readTetMesh(path), mesh);
  EXPECT_NE(test::readText(path).find("Triangles\n12\n"), std::string::npos);
}

TEST(MeshIo, ObjAndOffRoundTripsAreExact) {
  const SurfaceMesh cube = readSurfaceMesh(sample("cube.off"));
  SurfaceMesh surface{jitteredCube().V, cube.F};
  const fs::path dir = test::scratchDir("rt_surface");
  writeObj(dir / "s.obj", surface);
  writeOff(dir / "s.off", surface);
  for (const char* name : {"s.obj", "s.off"}) {
    SCOPED_TRACE(name);
    const SurfaceMesh read = readSurfaceMesh(dir / name);
    EXPECT_EQ(read.V, surface.V);
    EXPECT_EQ(read.F, surface.F);
  }
}

TEST(MeshIo, WriterReportsUnwritablePath) {
  const std::string message = errorOf([] { writeMedit("/nonexistent-folder/m.mesh", test::fiveTetCube()); });
  EXPECT_TRUE(message.starts_with("/nonexistent-folder/m.mesh: could not write")) << message;
}

TEST(MeshIo, ReadsAndWritesLargeMeshesQuickly) {
  const TetMesh grid = test::kuhnGrid(28);
  ASSERT_EQ(grid.T.rows(), 131712);
  const fs::path dir = test::scratchDir("large");
  Timer timer;
  writeMedit(dir / "g.mesh", grid);
  writeNodeEle(dir / "g", grid);
  const double write_ms = timer.ms();
  timer.restart();
  const TetMesh medit = readTetMesh(dir / "g.mesh");
  const TetMesh tetgen = readTetMesh(dir / "g.ele");
  const double read_ms = timer.ms();
  expectSameTetMesh(medit, grid);
  expectSameTetMesh(tetgen, grid);
  RecordProperty("write_ms", std::to_string(write_ms));
  RecordProperty("read_ms", std::to_string(read_ms));
  EXPECT_LT(read_ms, 5000.0) << "two reads of 131k tets took " << read_ms << " ms";
}

TEST(MeshIo, RecognisesExtensions) {
  for (const char* name : {"a.node", "a.ele", "a.mesh", "a.MSH", "a.obj", "a.off", "a.stl"}) EXPECT_TRUE(isMeshFile(name)) << name;
  for (const char* name : {"a.vtk", "a", "a.json"}) EXPECT_FALSE(isMeshFile(name)) << name;
  EXPECT_TRUE(errorOf([] { readTetMesh("x.vtk"); }).starts_with("x.vtk: unsupported tet mesh file type '.vtk'"));
  EXPECT_TRUE(errorOf([] { readSurfaceMesh("x.mesh"); }).starts_with("x.mesh: unsupported surface file type"));
}

}  // namespace
}  // namespace qnsim
