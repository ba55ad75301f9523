// The tets' spatial order (spatial_order.h) and the split of their corner forces between owned
// accumulators and gathered slots (corner_targets.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/mesh/shapes.h"
#include "core/mesh/spatial_order.h"
#include "core/objective/corner_targets.h"

namespace qnsim {
namespace {

// A permutation that walks a shuffled grid's points in short steps: consecutive points are, on the
// median, neighbours (one cell apart, or across a cell's face), where the shuffled order jumps across the grid.
TEST(SpatialOrder, WalksAGridInShortSteps) {
  const int side = 16, n = side * side * side;
  MatX3 points(n, 3);
  std::vector<int> shuffle(n);
  std::iota(shuffle.begin(), shuffle.end(), 0);
  std::shuffle(shuffle.begin(), shuffle.end(), std::mt19937(3));
  for (int i = 0; i < n; ++i) {
    const int c = shuffle[i];
    points.row(i) = Vec3(c % side, c / side % side, c / (side * side)).transpose() * 0.1;
  }
  const std::vector<int> order = spatialOrder(points);
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i);
  const auto medianStep = [&](const std::vector<int>& walk) {
    std::vector<double> step(n - 1);
    for (int i = 0; i + 1 < n; ++i) step[i] = (points.row(walk[i + 1]) - points.row(walk[i])).norm();
    std::nth_element(step.begin(), step.begin() + n / 2, step.end());
    return step[n / 2];
  };
  std::vector<int> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_LT(medianStep(order), 0.15);
  EXPECT_GT(medianStep(identity), 0.5);
}

// Equal points keep their order; a NaN or infinite coordinate sorts as the box's low one; none or one point.
TEST(SpatialOrder, TiesKeepTheirOrderAndNonFinitePointsGoFirst) {
  MatX3 points(5, 3);
  points << 1, 1, 1, 0, 0, 0, NAN, 0, 0, 1, 1, 1, 0.5, INFINITY, 0;
  EXPECT_EQ(spatialOrder(points), (std::vector<int>{1, 2, 4, 0, 3}));
  EXPECT_TRUE(spatialOrder(MatX3(0, 3)).empty());
  EXPECT_EQ(spatialOrder(MatX3::Zero(1, 3)), std::vector<int>{0});
}

// Every corner goes to its vertex's accumulator exactly where the vertex is owned: all its tets in one
// part and not marked as gathered; the parts cover the tets in near-equal ranges.
TEST(CornerTargets, OwnedVerticesAreThoseWhoseTetsShareOnePart) {
  const TetMesh box = makeBox(Vec3(1, 1, 1), Eigen::Vector3i(5, 4, 3));
  std::vector<Eigen::Vector4i> tets(box.T.rows());
  for (size_t e = 0; e < tets.size(); ++e) tets[e] = box.T.row(static_cast<Eigen::Index>(e)).transpose();
  const int n = static_cast<int>(box.V.rows()), nt = static_cast<int>(tets.size()), accumulator = 4 * nt + 7;
  std::vector<char> gathered(n, 0);
  gathered[11] = gathered[40] = 1;
  for (int parts : {1, 2, 3, 7}) {
    const CornerTargets t = cornerTargets(tets, gathered, parts, accumulator);
    ASSERT_EQ(t.parts(), parts);
    EXPECT_EQ(t.part_start.front(), 0);
    EXPECT_EQ(t.part_start.back(), nt);
    std::vector<std::vector<int>> parts_of(n);
    for (int p = 0; p < parts; ++p) {
      EXPECT_LE(std::abs((t.part_start[p + 1] - t.part_start[p]) - nt / parts), 1);
      for (int e = t.part_start[p]; e < t.part_start[p + 1]; ++e)
        for (int a = 0; a < 4; ++a) parts_of[tets[e][a]].push_back(p);
    }
    int owned = 0;
    for (int v = 0; v < n; ++v) {
      const bool one_part = std::all_of(parts_of[v].begin(), parts_of[v].end(), [&](int p) { return p == parts_of[v][0]; });
      EXPECT_EQ(t.owned[v] != 0, one_part && !gathered[v]) << v;
      owned += t.owned[v];
      if (!t.owned[v]) continue;
      const int p = parts_of[v][0];
      EXPECT_NE(std::find(t.owned_vertex.begin() + t.owned_start[p], t.owned_vertex.begin() + t.owned_start[p + 1], v),
                t.owned_vertex.begin() + t.owned_start[p + 1]) << v;
    }
    EXPECT_EQ(owned, t.owned_start[parts]);
    EXPECT_EQ(owned == n - 2, parts == 1);
    for (int e = 0; e < nt; ++e)
      for (int a = 0; a < 4; ++a) {
        const int v = tets[e][a];
        EXPECT_EQ(t.slot[4 * e + a], t.owned[v] ? accumulator + v : 4 * e + a);
        EXPECT_EQ(t.addsInto(t.slot[4 * e + a]), t.owned[v] != 0);
      }
  }
}

}  // namespace
}  // namespace qnsim
