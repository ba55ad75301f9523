// A cage of cubes around a surface (core/mesh/voxel_cage.h): it holds every surface vertex, fills the
// solid and no more than a layer of cells around it, and a surface opened with "cage" is simulated on
// it and drawn over it.
#include <gtest/gtest.h>

#include "core/common/files.h"
#include "core/common/log.h"
#include "core/mesh/embedding.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/shapes.h"
#include "core/mesh/surface.h"
#include "core/mesh/tetrahedralize.h"
#include "core/mesh/voxel_cage.h"
#include "qnsim/error.h"
#include "qnsim/scene.h"
#include "qnsim/simulation.h"
#include "tests/mesh_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

double volumeOf(const TetMesh& m) {
  double v = 0;
  for (Eigen::Index t = 0; t < m.T.rows(); ++t) {
    const Vec3 a = m.V.row(m.T(t, 0)), b = m.V.row(m.T(t, 1)), c = m.V.row(m.T(t, 2)), d = m.V.row(m.T(t, 3));
    const double six = (b - a).cross(c - a).dot(d - a);
    EXPECT_GT(six, 0) << "tet " << t << " is not positively oriented";
    v += six / 6;
  }
  return v;
}

// A box surface turned 30 degrees about z and 20 about x, so that no face lies along the grid.
SurfaceMesh tiltedBox() {
  SurfaceMesh s = boundarySurface(makeBox(Vec3(1, 0.5, 0.4), Eigen::Vector3i(6, 3, 3)));
  const Mat3 R = (Eigen::AngleAxisd(0.52, Vec3::UnitZ()) * Eigen::AngleAxisd(0.35, Vec3::UnitX())).toRotationMatrix();
  s.V = s.V * R.transpose();
  return s;
}

TEST(VoxelCage, AGridAlignedBoxIsItsOwnCage) {
  const SurfaceMesh box = boundarySurface(makeBox(Vec3(1, 0.5, 0.5), Eigen::Vector3i(4, 2, 2)));
  const TetMesh cage = voxelCage(box, 8);
  EXPECT_EQ(cage.T.rows(), 5 * 8 * 4 * 4);
  EXPECT_NEAR(volumeOf(cage), 0.25, 1e-12);
  EXPECT_EQ(cage.V.rows(), 9 * 5 * 5) << "every grid corner used once";
}

TEST(VoxelCage, HoldsEverySurfaceVertexAndTightensWithMoreCells) {
  const SurfaceMesh box = tiltedBox();
  const double solid = 0.2;
  double previous = INFINITY, excess = INFINITY;
  for (int cells : {4, 8, 16, 32}) {
    const TetMesh cage = voxelCage(box, cells);
    const double v = volumeOf(cage);
    EXPECT_GT(v, solid) << cells << " cells: the cage holds the solid";
    EXPECT_LT(v, previous) << cells << " cells: finer cells fit closer";
    if (cells >= 16) {
      EXPECT_LT(v - solid, 0.6 * excess) << cells << " cells: the layer around the solid thins with the cells";
    }
    previous = v, excess = v - solid;
    const RenderMesh bound = embedSurface({box.V, box.F, {}, {}}, cage.V, cage.T, 0, "tilted box");
    for (int i = 0; i < bound.vertexCount(); ++i) EXPECT_EQ(bound.outside[i], 0.0) << "vertex " << i << " outside the cage";
  }
  EXPECT_LT(previous, 1.4 * solid) << "32 cells: a thin layer of cells around the solid";
}

// A surface with a hole (two triangles gone) still gets the solid's cage, with a warning naming the hole.
TEST(VoxelCage, ASurfaceWithAHoleGetsTheSolidsCageAndAWarning) {
  const std::filesystem::path dir = test::scratchDir("voxel_cage_hole");
  const SurfaceMesh closed = tiltedBox();
  SurfaceMesh holed = closed;
  holed.F = closed.F.topRows(closed.F.rows() - 2);
  writeObj(dir / "holed.obj", holed);
  std::vector<std::string> warnings;
  const WarningHandler previous = setWarningHandler([&](const std::string& w) { warnings.push_back(w); });
  TetgenOptions options;
  options.cage_cells = 16;
  const TetMesh cage = readTetMesh(dir / "holed.obj", options);
  setWarningHandler(previous);
  const double whole = static_cast<double>(voxelCage(closed, 16).T.rows());
  EXPECT_NEAR(static_cast<double>(cage.T.rows()), whole, 0.01 * whole) << "the rays through the hole are outvoted, but next to it";
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("holed.obj: the surface is not closed"), std::string::npos) << warnings[0];
}

TEST(VoxelCage, RefusesACellCountOutOfRange) {
  const std::string one = test::errorOf([] { voxelCage(tiltedBox(), 1); });
  EXPECT_NE(one.find("2 to 64 cells"), std::string::npos) << one;
  EXPECT_THROW(voxelCage(tiltedBox(), 65), Error);
}

// A surface body with "tetgen": {"cage": n} is simulated on the cage and drawn from the surface, and saves
// and reads back so.
TEST(VoxelCage, ASurfaceBodyOnACageIsDrawnFromTheSurfaceAndSavesSo) {
  const std::filesystem::path dir = test::scratchDir("voxel_cage_scene");
  writeObj(dir / "tilted.obj", tiltedBox());
  writeFileBytes(dir / "scene.json", R"({"version": 1, "bodies": [{"mesh": "tilted.obj", "tetgen": {"cage": 8},
    "translate": [0, 1, 0], "materials": [{"model": "corotated", "mu": 1e5, "lambda": 4e5}]}], "colliders": [{"type": "plane"}]})");
  const Scene scene = loadScene(dir / "scene.json");
  const BodyDesc& body = scene.bodies.front();
  EXPECT_EQ(body.mesh.T.rows() % 5, 0) << "five tets per cell";
  EXPECT_EQ(body.render.V.rows(), tiltedBox().V.rows()) << "the surface is the render mesh";
  EXPECT_NEAR(body.render.V.col(1).mean(), tiltedBox().V.col(1).mean() + 1, 1e-12) << "placed as the cage";
  Simulation sim(scene);
  for (int f = 0; f < 5; ++f) sim.step();
  EXPECT_TRUE(sim.state().x.allFinite());
  writeScene(scene, dir / "saved.json");
  const Scene back = loadScene(dir / "saved.json");
  EXPECT_EQ(back.bodies.front().mesh.T.rows(), body.mesh.T.rows());
  EXPECT_EQ(back.bodies.front().render.V.rows(), body.render.V.rows());
}

}  // namespace
}  // namespace qnsim
