// The exact intersection check: the orientation predicates against integer arithmetic on
// near-degenerate inputs where floating point gets the sign wrong, segment-triangle cases (crossing,
// touching, coplanar), and the whole-surface count against a brute-force one on crossed cloths.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "core/collision/intersection_check.h"
#include "core/math/exact_predicates.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

__extension__ typedef __int128 Int128;

using IVec3 = Eigen::Matrix<long long, 3, 1>;

// The sign of det[b - a, c - a, d - a] in integers (coordinates below 2^40: products fit 2^127).
int integerOrient3d(const IVec3& a, const IVec3& b, const IVec3& c, const IVec3& d) {
  const IVec3 u = b - a, v = c - a, w = d - a;
  const Int128 det = Int128(u.x()) * (Int128(v.y()) * w.z() - Int128(v.z()) * w.y()) +
                     Int128(u.y()) * (Int128(v.z()) * w.x() - Int128(v.x()) * w.z()) +
                     Int128(u.z()) * (Int128(v.x()) * w.y() - Int128(v.y()) * w.x());
  return (det > 0) - (det < 0);
}

Vec3 toDouble(const IVec3& p, double scale) { return p.cast<double>() * scale; }

TEST(ExactPredicates, Orient3dMatchesIntegerArithmeticOnNearlyCoplanarPoints) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<long long> big(-(1LL << 36), 1LL << 36), small(-1, 1), step(-2, 2);
  int float_wrong = 0, zeros = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const IVec3 a(big(rng), big(rng), big(rng)), b(big(rng), big(rng), big(rng)), c(big(rng), big(rng), big(rng));
    // d on the plane of a, b, c (an integer combination), every other time nudged by a unit.
    IVec3 d = a + step(rng) * (b - a) + step(rng) * (c - a);
    if (trial % 2) d += IVec3(small(rng), small(rng), small(rng));
    const double scale = std::ldexp(1.0, -30);  // exact: a power of two
    const Vec3 da = toDouble(a, scale), db = toDouble(b, scale), dc = toDouble(c, scale), dd = toDouble(d, scale);
    const int exact = integerOrient3d(a, b, c, d);
    EXPECT_EQ(orient3d(da, db, dc, dd), exact) << trial;
    const double naive = (db - da).dot((dc - da).cross(dd - da));
    float_wrong += ((naive > 0) - (naive < 0)) != exact;
    zeros += exact == 0;
  }
  // The test means something only if floating point alone often gets these wrong.
  EXPECT_GT(float_wrong, 100);
  std::printf("orient3d: floating point wrong on %d of 4000 nearly coplanar cases (%d exactly coplanar)\n", float_wrong, zeros);
}

TEST(ExactPredicates, Orient3dIsZeroOnExactlyCoplanarPointsAndAntisymmetric) {
  const Vec3 a(0.1, 0.2, 0.3), b(1.7, -0.4, 0.3), c(-2.3, 5.1, 0.3), d(3.3, 3.3, 0.3);
  EXPECT_EQ(orient3d(a, b, c, d), 0);
  const Vec3 e(0.1, 0.2, 0.3 + std::ldexp(1.0, -54));  // one ulp above the plane
  const int s = orient3d(a, b, c, e);
  EXPECT_NE(s, 0);
  EXPECT_EQ(orient3d(b, a, c, e), -s);
  EXPECT_EQ(orient3d(a, c, b, e), -s);
  EXPECT_EQ(orient3d(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)), 1);
}

TEST(ExactPredicates, Orient2dDecidesShewchuksGridOfNearlyCollinearPoints) {
  // Points within a few ulps of (0.5, 0.5) against the line through (12, 12) and (24, 24): the sign is
  // that of j - i exactly (the line is y = x), which floating point gets wrong on many of them.
  const double ulp = std::ldexp(1.0, -53);
  int float_wrong = 0;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      const Vec2 p(0.5 + i * ulp, 0.5 + j * ulp), b(12, 12), c(24, 24);
      const int expected = (j > i) - (j < i);  // 12 (p_y - p_x)
      EXPECT_EQ(orient2d(b, c, p), expected) << i << " " << j;
      const double naive = (c.x() - b.x()) * (p.y() - b.y()) - (c.y() - b.y()) * (p.x() - b.x());
      float_wrong += ((naive > 0) - (naive < 0)) != expected;
    }
  EXPECT_GT(float_wrong, 1000);
}

TEST(ExactPredicates, SegmentMeetsTriangleCrossingTouchingAndCoplanar) {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  EXPECT_TRUE(segmentMeetsTriangle(Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 1), a, b, c));    // through the inside
  EXPECT_FALSE(segmentMeetsTriangle(Vec3(0.8, 0.8, -1), Vec3(0.8, 0.8, 1), a, b, c));   // beside it
  EXPECT_FALSE(segmentMeetsTriangle(Vec3(0.2, 0.2, 0.5), Vec3(0.2, 0.2, 1), a, b, c));  // above it
  EXPECT_TRUE(segmentMeetsTriangle(Vec3(0.2, 0.2, 0), Vec3(0.2, 0.2, 1), a, b, c));     // an end on the face
  EXPECT_TRUE(segmentMeetsTriangle(Vec3(0.5, 0.5, -1), Vec3(0.5, 0.5, 1), a, b, c));    // through the edge b c
  EXPECT_TRUE(segmentMeetsTriangle(Vec3(0, 0, -1), Vec3(0, 0, 1), a, b, c));            // through a corner
  EXPECT_TRUE(segmentMeetsTriangle(Vec3(-1, 0.3, 0), Vec3(2, 0.3, 0), a, b, c));        // coplanar, across
  EXPECT_TRUE(segmentMeetsTriangle(Vec3(0.1, 0.1, 0), Vec3(0.2, 0.1, 0), a, b, c));     // coplanar, inside
  EXPECT_FALSE(segmentMeetsTriangle(Vec3(1, 1, 0), Vec3(2, 0.5, 0), a, b, c));          // coplanar, outside
  EXPECT_TRUE(segmentMeetsTriangle(Vec3(0.5, 0.5, 0), Vec3(2, 2, 0), a, b, c));         // coplanar, touching b c
  EXPECT_FALSE(segmentMeetsTriangle(Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 1), a, Vec3(2, 0, 0), Vec3(3, 0, 0)));  // no area
  // Just beside the edge b c by one ulp of 0.5, crossing the plane: floating point alone cannot tell.
  const double off = 0.5 + std::ldexp(1.0, -53);
  EXPECT_FALSE(segmentMeetsTriangle(Vec3(off, off, -1), Vec3(off, off, 1), a, b, c));
}

// Two 6 x 6 cloths; the second placed by `translate` and `rotate` (degrees about z).
Model twoCloths(const Vec3& translate, double degrees) {
  const auto cloth = [](const std::string& name, const Vec3& t, double deg) {
    return R"({"name": ")" + name + R"(", "shape": {"type": "cloth", "size": [1, 1], "vertices": [6, 6]}, "translate": [)" +
           std::to_string(t.x()) + "," + std::to_string(t.y()) + "," + std::to_string(t.z()) + R"(], "rotate": {"axis": [0, 0, 1], "degrees": )" +
           std::to_string(deg) + R"(}, "materials": [{"region": "stretch", "model": "spring", "k": 300}, {"region": "bend", "model": "spring", "k": 20}]})";
  };
  return test::buildInline(R"({"version": 1, "bodies": [)" + cloth("a", Vec3::Zero(), 0) + "," + cloth("b", translate, degrees) + "]}")
      .model;
}

// Every pair without the grid, with the same predicate.
int bruteForceEdgeCrossings(const Model& model, const VecX& x) {
  std::set<std::pair<int, int>> edges;
  std::vector<Eigen::Vector3i> triangles;
  for (const Body& body : model.bodies)
    for (Eigen::Index f = 0; f < body.surface.rows(); ++f) {
      const Eigen::Vector3i t = body.surface.row(f);
      triangles.push_back(t);
      for (int k = 0; k < 3; ++k) edges.insert({std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])});
    }
  int count = 0;
  for (const auto& [p, q] : edges)
    for (const Eigen::Vector3i& t : triangles)
      if ((t.array() != p).all() && (t.array() != q).all())
        count += segmentMeetsTriangle(vertex(x, p), vertex(x, q), vertex(x, t[0]), vertex(x, t[1]), vertex(x, t[2]));
  return count;
}

TEST(IntersectionCheck, ApartClothsHaveNoneAndCrossedOnesMatchBruteForce) {
  const Model apart = twoCloths(Vec3(0, 0.3, 0), 0);
  EXPECT_EQ(countIntersections(apart, apart.rest).total(), 0);
  // The second cloth stood up (rotated 90 degrees about z) through the first's middle.
  const Model crossed = twoCloths(Vec3(0.05, 0, 0.03), 90);
  const IntersectionCount count = countIntersections(crossed, crossed.rest);
  EXPECT_GT(count.triangle_pairs, 0);
  EXPECT_GT(count.edge_crossings, 0);
  EXPECT_EQ(count.edge_crossings, bruteForceEdgeCrossings(crossed, crossed.rest));
  // A random crumple of both: the grid finds what every pair finds.
  std::mt19937 rng(3);
  const VecX x = test::perturbed(crossed.rest, 0.15, rng);
  EXPECT_EQ(countIntersections(crossed, x).edge_crossings, bruteForceEdgeCrossings(crossed, x));
}

TEST(IntersectionCheck, ATouchingPairCountsAndCollidersCountVerticesInside) {
  // The second cloth lies exactly in the first's plane, shifted by half a cell: coplanar overlap.
  const Model coplanar = twoCloths(Vec3(0.1, 0, 0.1), 0);
  EXPECT_GT(countIntersections(coplanar, coplanar.rest).triangle_pairs, 0);
  const Model apart = twoCloths(Vec3(0, 0.3, 0), 0);
  Collider ground;  // a plane with normal +y
  ground.position = Vec3(0, 0.1, 0);  // between the cloths: the lower one's 36 vertices are below it
  EXPECT_EQ(countIntersections(apart, apart.rest, {ground}).inside_colliders, 36);
}

}  // namespace
}  // namespace qnsim
