// Continuous collision detection: the time of impact of the additive march, with its separating-plane
// jumps, is never later than the first contact found by brute-force sampling of the motion, on random
// motions, on close pairs moving along each other and on adversarial ones (parallel edges, grazing, a
// vertex exactly on a face, contact exactly at the end of the step), for point-triangle, edge-edge and
// points against colliders; pairs sliding along are cleared whole.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "core/collision/ccd.h"
#include "core/collision/collider.h"
#include "core/math/exact_predicates.h"
#include "core/math/proximity.h"

namespace qnsim {
namespace {

constexpr int kSamples = 4000;

Vec3 random3(std::mt19937& rng, double amplitude) {
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  return {u(rng), u(rng), u(rng)};
}

// The motion of four vertices, x + t dx.
struct Motion {
  std::array<Vec3, 4> x, dx;
  std::array<Vec3, 4> at(double t) const { return {x[0] + t * dx[0], x[1] + t * dx[1], x[2] + t * dx[2], x[3] + t * dx[3]}; }
};

// The first sample time at which the pair touches or has passed through, by brute force: the vertex
// crosses the triangle's plane (or the edges cross each other's lines) between two samples at a place
// inside, or the distance is zero. 2 when they never do.
double sampledContact(const Motion& m, bool edges) {
  const auto distance = [&](const std::array<Vec3, 4>& v) {
    return edges ? segmentDistance(v[0], v[1], v[2], v[3]) : pointTriangleDistance(v[0], v[1], v[2], v[3]);
  };
  const auto side = [&](const std::array<Vec3, 4>& v) { return edges ? orient3d(v[0], v[1], v[2], v[3]) : orient3d(v[1], v[2], v[3], v[0]); };
  std::array<Vec3, 4> previous = m.at(0);
  if (distance(previous) == 0) return 0;
  for (int k = 1; k <= kSamples; ++k) {
    const double t = double(k) / kSamples;
    const std::array<Vec3, 4> v = m.at(t);
    if (distance(v) == 0) return t;
    if (side(v) != side(previous)) {
      // Crossed the plane (or the other's line) between the samples: a contact if where it crossed,
      // interpolated, lies on the primitives (within a sample's motion of them).
      double lo = t - 1.0 / kSamples, hi = t;
      for (int i = 0; i < 60; ++i) {  // bisect on the side to the crossing time
        const double mid = 0.5 * (lo + hi);
        (side(m.at(mid)) == side(previous) ? lo : hi) = mid;
      }
      if (distance(m.at(hi)) < 1e-9) return t;
    }
    previous = v;
  }
  return 2;
}

double ccd(const Motion& m, bool edges) {
  return edges ? edgeEdgeCcd(m.x[0], m.x[1], m.x[2], m.x[3], m.dx[0], m.dx[1], m.dx[2], m.dx[3])
               : pointTriangleCcd(m.x[0], m.x[1], m.x[2], m.x[3], m.dx[0], m.dx[1], m.dx[2], m.dx[3]);
}

// The CCD's time is no later than the sampled contact, and the pair is apart at every sample before it.
void expectConservative(const Motion& m, bool edges, const std::string& what) {
  const double toi = ccd(m, edges), contact = sampledContact(m, edges);
  EXPECT_LE(toi, std::min(contact, 1.0)) << what;
  EXPECT_GE(toi, 0.0) << what;
  for (int k = 0; k <= 400; ++k) {
    const std::array<Vec3, 4> v = m.at(toi * k / 400);
    const double d = edges ? segmentDistance(v[0], v[1], v[2], v[3]) : pointTriangleDistance(v[0], v[1], v[2], v[3]);
    if (toi > 0) {
      EXPECT_GT(d, 0.0) << what << " at t = " << toi * k / 400;
    }
  }
}

TEST(Ccd, RandomMotionsNeverReportContactLate) {
  std::mt19937 rng(11);
  int contacts = 0;
  for (int trial = 0; trial < 300; ++trial) {
    for (bool edges : {false, true}) {
      Motion m;
      for (int i = 0; i < 4; ++i) m.x[i] = random3(rng, 1.0), m.dx[i] = random3(rng, 1.5);
      // Every other motion aims the first vertex (or edge) at the other primitive, so that many meet.
      if (trial % 2 && edges) m.dx[0] = m.dx[1] = (m.x[2] + m.x[3] - m.x[0] - m.x[1]) + random3(rng, 0.3);
      if (trial % 2 && !edges) m.dx[0] = 2.0 * ((m.x[1] + m.x[2] + m.x[3]) / 3 - m.x[0]) + random3(rng, 0.3);
      contacts += sampledContact(m, edges) <= 1;
      expectConservative(m, edges, (edges ? "edges " : "point ") + std::to_string(trial));
    }
  }
  EXPECT_GT(contacts, 120);  // the battery must contain contacts to be about anything
}

TEST(Ccd, HeadOnApproachStopsShortButNotFarShort) {
  // A point falling onto a triangle's middle, reaching it at t = 0.5.
  const Motion m{{Vec3(0.2, 0.2, 1), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {Vec3(0, 0, -2), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()}};
  const double toi = ccd(m, false);
  EXPECT_LT(toi, 0.5);
  EXPECT_GE(toi, 0.39);
}

TEST(Ccd, AdversarialMotions) {
  const Vec3 o = Vec3::Zero();
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  // Parallel edges approaching each other, meeting at t = 0.75; and parallel, overlapping, sliding along.
  expectConservative({{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.3, 0, 0.75), Vec3(1.3, 0, 0.75)}, {o, o, Vec3(0, 0, -1), Vec3(0, 0, -1)}}, true,
                     "parallel edges");
  expectConservative({{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.3, 0, 1e-3), Vec3(1.3, 0, 1e-3)}, {o, o, Vec3(-2, 0, 0), Vec3(-2, 0, 0)}}, true,
                     "parallel edges sliding");
  // Crossed edges closing exactly at t = 1.
  expectConservative({{Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, -1, 0.5), Vec3(0, 1, 0.5)}, {o, o, Vec3(0, 0, -0.5), Vec3(0, 0, -0.5)}}, true,
                     "edges touching at the end");
  // Grazing: a point gliding over a triangle at 1e-4, and one skimming its edge in its plane.
  expectConservative({{Vec3(-0.5, 0.2, 1e-4), a, b, c}, {Vec3(2, 0, 0), o, o, o}}, false, "grazing above");
  expectConservative({{Vec3(-0.5, -1e-6, 0), a, b, c}, {Vec3(2, 0, 0), o, o, o}}, false, "skimming the edge");
  expectConservative({{Vec3(-0.5, 0.3, 0), a, b, c}, {Vec3(2, 0, 0), o, o, o}}, false, "in the plane, into the triangle");
  // A vertex on the face at the start (to round-off) moving into it: no step; arriving exactly at
  // t = 1: short of 1.
  EXPECT_LT(ccd({{Vec3(0.2, 0.2, 0), a, b, c}, {Vec3(0, 0, -1), o, o, o}}, false), 1e-9);
  const double end = ccd({{Vec3(0.2, 0.2, 1), a, b, c}, {Vec3(0, 0, -1), o, o, o}}, false);
  EXPECT_LT(end, 1.0);
  EXPECT_GE(end, 0.79);
  // The triangle moving onto a resting point, and rotating through it.
  expectConservative({{Vec3(0.2, 0.2, 0), Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 1)}, {o, Vec3(0, 0, -2), Vec3(0, 0, -2), Vec3(0, 0, -2)}},
                     false, "triangle falling on a point");
  expectConservative({{Vec3(0.3, 0.3, 0.2), a, Vec3(1, 0, 0.5), Vec3(0, 1, 0.5)}, {o, o, Vec3(0, 0, -1), Vec3(0, 0, -1)}}, false,
                     "triangle turning onto a point");
  // No relative motion at all (a rigid translation): never a contact.
  EXPECT_EQ(ccd({{Vec3(0.2, 0.2, 0.1), a, b, c}, {Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1)}}, false), 1.0);
}

// A pair sliding along at a small distance d with displacement l: the additive march alone would take
// l / d steps (here 5e5 and 2e6, far beyond its cap, stalling at t ~ 0.02 and 0.005); the separating plane clears
// the whole step at once. Also against a convex collider; the torus (not convex) stays conservative.
TEST(Ccd, PairsSlidingPastAreClearedByASeparatingPlane) {
  const Vec3 o = Vec3::Zero(), a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  const Motion above{{Vec3(0.1, 0.2, 1e-6), a, b, c}, {Vec3(0.5, 0, 0), o, o, o}};
  EXPECT_EQ(ccd(above, false), 1.0);
  const Motion parallel{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.3, 0, 1e-6), Vec3(1.3, 0, 1e-6)}, {o, o, Vec3(-2, 0, 0), Vec3(-2, 0, 0)}};
  EXPECT_EQ(ccd(parallel, true), 1.0);
  // Sliding while closing in a little: held short of the contact, at most 0.9 of the way in.
  const Motion closing{{Vec3(0.1, 0.2, 1e-6), a, b, c}, {Vec3(0.5, 0, -2e-6), o, o, o}};
  EXPECT_GT(ccd(closing, false), 0.4);
  EXPECT_LE(ccd(closing, false), 0.45);
  Collider box;
  box.shape = Collider::Shape::Box;
  EXPECT_EQ(pointColliderCcd(Vec3(-0.9, 1 + 1e-6, 0), Vec3(1.8, 0, 0), box), 1.0);
  Collider torus;
  torus.shape = Collider::Shape::Torus;
  torus.major_radius = 1.0, torus.minor_radius = 0.25;
  const double around = pointColliderCcd(Vec3(1, 0, 0.25 + 1e-6), Vec3(-1, 1, 0), torus);
  for (int k = 0; k <= 400; ++k) EXPECT_GT(closestSurfacePoint(torus, Vec3(1, 0, 0.25 + 1e-6) + around * k / 400 * Vec3(-1, 1, 0)).distance, 0.0);
}

// Random pairs close together (1e-3 to 1e-7 apart) moving mostly along each other, the case where the
// separating plane decides: never later than the sampled contact.
TEST(Ccd, ClosePairsMovingAlongEachOtherNeverReportContactLate) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> exponent(-7, -3);
  for (int trial = 0; trial < 300; ++trial)
    for (bool edges : {false, true}) {
      Motion m;
      const double gap = std::pow(10.0, exponent(rng));
      if (edges) {
        m.x = {Vec3(-0.5, 0, 0), Vec3(0.5, 0, 0), Vec3(0, -0.5, gap), Vec3(0.1, 0.5, gap)};
      } else {
        m.x = {Vec3(0.2, 0.2, gap), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
      }
      for (int i = 0; i < 4; ++i) {
        const Vec3 along = random3(rng, 0.5);
        m.dx[i] = Vec3(along.x(), along.y(), 0) + random3(rng, 3 * gap);  // a turn of a few gaps
      }
      expectConservative(m, edges, (edges ? "edges " : "point ") + std::to_string(trial));
    }
}

TEST(Ccd, PointsAgainstCollidersStopOutside) {
  Collider sphere;
  sphere.shape = Collider::Shape::Sphere;
  sphere.radius = 0.5;
  Collider torus;
  torus.shape = Collider::Shape::Torus;
  torus.major_radius = 1.0, torus.minor_radius = 0.25;
  Collider box;
  box.shape = Collider::Shape::Box;
  box.rotation = Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  std::mt19937 rng(5);
  int hits = 0;
  for (const Collider& c : {sphere, torus, box, Collider{}}) {
    for (int trial = 0; trial < 200; ++trial) {
      const Vec3 p = random3(rng, 2.0), dp = (trial % 2 ? Vec3(-2.0 * p) : Vec3::Zero()) + random3(rng, 1.5);  // every other aimed in
      if (closestSurfacePoint(c, p).distance <= 0) continue;
      const double toi = pointColliderCcd(p, dp, c);
      double first = 2;  // the first sample inside
      for (int k = 0; k <= kSamples && first > 1; ++k)
        if (closestSurfacePoint(c, p + (double(k) / kSamples) * dp).distance <= 0) first = double(k) / kSamples;
      hits += first <= 1;
      EXPECT_LE(toi, std::min(first, 1.0));
      for (int k = 0; k <= 200; ++k) EXPECT_GT(closestSurfacePoint(c, p + toi * k / 200 * dp).distance, 0.0);
    }
  }
  EXPECT_GT(hits, 100);
}

// A point farther from a collider than ccdCullDistance of its motion (the cull before the march) is one
// the march would run past to the end: skipping it leaves every time of impact as it was.
TEST(Ccd, PointsBeyondTheCullDistanceRunTheMarchToTheEnd) {
  Collider torus;
  torus.shape = Collider::Shape::Torus;
  torus.major_radius = 1.0, torus.minor_radius = 0.25;
  Collider capsule;
  capsule.shape = Collider::Shape::Capsule, capsule.radius = 0.3, capsule.half_length = 0.6;
  std::mt19937 rng(9);
  int beyond = 0;
  for (const Collider& c : {torus, capsule})
    for (int trial = 0; trial < 4000; ++trial) {
      CcdOptions options;
      options.max_time = trial % 3 ? 1.0 : 0.37;
      options.min_distance = trial % 2 ? 1e-9 : 0.05;
      const Vec3 p = random3(rng, 2.0), dp = random3(rng, 0.5) - (trial % 4 ? 0.0 : 0.3) * p;  // some aimed in
      if (mayReach(c, p, ccdCullDistance(options.max_time * dp.norm(), options))) continue;
      ++beyond;
      EXPECT_EQ(pointColliderCcd(p, dp, c, options), options.max_time);
    }
  EXPECT_GT(beyond, 1000);
}

// A collider moving through a frame (the barrier's start, ContactBarrier::sweptStart): a point and a
// sphere, torus, turned box and plane, each translating and turning over the frame, against brute-force
// sampling of the joint motion; and the pose within the frame starts where the frame's start pose is.
TEST(Ccd, PointsAgainstMovingCollidersStopOutside) {
  const double h = 0.05;
  std::vector<Collider> shapes(4);
  shapes[0].shape = Collider::Shape::Sphere, shapes[0].radius = 0.5;
  shapes[1].shape = Collider::Shape::Torus, shapes[1].major_radius = 1.0, shapes[1].minor_radius = 0.25;
  shapes[2].shape = Collider::Shape::Box;
  shapes[2].rotation = Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  std::mt19937 rng(7);
  int hits = 0;
  for (Collider c : shapes) {
    for (int trial = 0; trial < 200; ++trial) {
      c.velocity = random3(rng, 20.0);  // up to a metre in the frame
      c.angular_velocity = random3(rng, 20.0);
      const Collider before = posedWithinFrame(c, h, 0.0);
      const Vec3 p = random3(rng, 2.0);
      const Vec3 dp = (trial % 2 ? Vec3(before.position - p) : Vec3::Zero()) + random3(rng, 1.0);  // every other aimed at it
      if (closestSurfacePoint(before, p).distance <= 0) continue;
      const double toi = pointMovingColliderCcd(p, dp, c, h);
      const auto distance = [&](double t) { return closestSurfacePoint(posedWithinFrame(c, h, t), p + t * dp).distance; };
      double first = 2;  // the first sample inside
      for (int k = 0; k <= kSamples && first > 1; ++k)
        if (distance(double(k) / kSamples) <= 0) first = double(k) / kSamples;
      hits += first <= 1;
      EXPECT_LE(toi, std::min(first, 1.0));
      for (int k = 0; k <= 200; ++k) EXPECT_GT(distance(toi * k / 200), 0.0);
    }
  }
  EXPECT_GT(hits, 100);
  // At s = 1 the collider is its end pose; at s = 0 its pose a step before, by its own velocities.
  Collider turning = shapes[2];
  turning.position = Vec3(1, 2, 3);
  turning.velocity = Vec3(0, -4, 0);
  turning.angular_velocity = Vec3(0, 0, 10);
  EXPECT_EQ(posedWithinFrame(turning, h, 1.0).position, turning.position);
  EXPECT_TRUE(posedWithinFrame(turning, h, 1.0).rotation.isApprox(turning.rotation, 1e-15));
  const Collider start = posedWithinFrame(turning, h, 0.0);
  EXPECT_TRUE(start.position.isApprox(Vec3(1, 2.2, 3), 1e-15));
  EXPECT_TRUE((start.rotation * turning.rotation.transpose()).isApprox(Eigen::AngleAxisd(-0.5, Vec3::UnitZ()).toRotationMatrix(), 1e-14));
}

}  // namespace
}  // namespace qnsim
