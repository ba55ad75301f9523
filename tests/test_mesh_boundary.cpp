// Boundary extraction: which faces, their orientation (checked with the divergence theorem: the
// volume the faces enclose equals the sum of the tet volumes), and the compact surface.
#include <gtest/gtest.h>

#include "core/mesh/surface.h"
#include "tests/mesh_fixtures.h"

namespace qnsim {
namespace {

void expectClosedOutwardBoundary(const TetMesh& mesh, Eigen::Index expected_faces) {
  const TriIndices F = boundaryFaces(mesh.T);
  EXPECT_EQ(F.rows(), expected_faces);
  EXPECT_NEAR(test::enclosedVolume(mesh.V, F), test::totalVolume(mesh), 1e-12 * test::totalVolume(mesh));
}

TEST(Boundary, SingleTetFacesPointOutwardInLocalOrder) {
  TetIndices T(1, 4);
  T << 0, 1, 2, 3;
  TriIndices expected(4, 3);
  expected << 1, 2, 3, 0, 3, 2, 0, 1, 3, 0, 2, 1;
  EXPECT_EQ(boundaryFaces(T), expected);
}

TEST(Boundary, CubesHaveTwelveOutwardTriangles) {
  expectClosedOutwardBoundary(test::fiveTetCube(), 12);
  expectClosedOutwardBoundary(test::kuhnGrid(1), 12);  // six tets around the diagonal
}

TEST(Boundary, GridBoundaryHasOnlyOuterFaces) {
  // 3x3x3 cells: 6 sides x 9 squares x 2 triangles; interior faces are shared and dropped.
  expectClosedOutwardBoundary(test::kuhnGrid(3), 108);
}

TEST(Boundary, SharedFacesAreDroppedAndOrderFollowsTets) {
  // Two positive tets glued along the face {1, 2, 3}: three faces each remain, by tet then local face.
  TetIndices T(2, 4);
  T << 0, 1, 2, 3, 1, 2, 3, 4;
  TriIndices expected(6, 3);
  expected << 0, 3, 2, 0, 1, 3, 0, 2, 1, 2, 3, 4, 1, 4, 3, 1, 2, 4;
  EXPECT_EQ(boundaryFaces(T), expected);
  const TetMesh grid = test::kuhnGrid(2);
  EXPECT_EQ(boundaryFaces(grid.T), boundaryFaces(grid.T));
}

TEST(Boundary, EmptyMeshHasNoBoundary) { EXPECT_EQ(boundaryFaces(TetIndices(0, 4)).rows(), 0); }

TEST(Boundary, CompactSurfaceDropsInteriorVerticesAndMapsBack) {
  const TetMesh grid = test::kuhnGrid(2);  // 27 vertices, the centre one interior
  Eigen::VectorXi to_tet;
  const SurfaceMesh surface = boundarySurface(grid, to_tet);
  ASSERT_EQ(surface.V.rows(), 26);
  ASSERT_EQ(to_tet.size(), 26);
  for (Eigen::Index i = 0; i < to_tet.size(); ++i) {
    EXPECT_EQ(surface.V.row(i), grid.V.row(to_tet[i]));
    if (i > 0) {
      EXPECT_LT(to_tet[i - 1], to_tet[i]);
    }
  }
  EXPECT_EQ((to_tet.array() == 13).count(), 0) << "vertex 13 is the interior centre";
  EXPECT_NEAR(test::enclosedVolume(surface.V, surface.F), 8.0, 1e-12);
  EXPECT_EQ(boundarySurface(grid).F, surface.F);

  // A renderer updates the surface from deformed positions.
  MatX3 V_deformed = 2.0 * grid.V;
  MatX3 V_surface;
  gatherBoundaryPositions(flatten(V_deformed), to_tet, V_surface);
  EXPECT_NEAR(test::enclosedVolume(V_surface, surface.F), 64.0, 1e-12);
}

}  // namespace
}  // namespace qnsim
