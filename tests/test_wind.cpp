// Wind (core/objective/wind.h): the air drag is -c A (n . (v - w)) n per triangle, gusts are smooth,
// seeded and bounded, and a cloth in the wind is pushed downwind while air moving with it does nothing.
#include <gtest/gtest.h>

#include "core/objective/wind.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

// A single triangle of area 1/2 in the xz plane (normal along y).
Model oneTriangle() {
  Model m;
  m.rest = VecX::Zero(9);
  vertex(m.rest, 1) = Vec3(1, 0, 0);
  vertex(m.rest, 2) = Vec3(0, 0, 1);
  m.mass = VecX::Ones(3);
  Body body;
  body.vertex_count = 3;
  body.surface.resize(1, 3);
  body.surface << 0, 2, 1;
  m.bodies.push_back(body);
  return m;
}

TEST(Wind, ForceIsTheDragOfTheRelativeNormalVelocity) {
  const Model m = oneTriangle();
  const double h = 0.01, drag = 6.0;
  const WindSettings wind{Vec3(2, 5, -1), drag, 0.0, 1.0, 1};
  std::vector<WindTerm> terms;
  makeWindTerms(m, m.rest, wind, h, 0.0, terms);
  ASSERT_EQ(terms.size(), 3u);
  // Every vertex moving at v: the force on the triangle is -c A (n . (v - w)) n, a third per vertex.
  const Vec3 v(0.5, -1.0, 3.0), n = Vec3::UnitY();
  for (const WindTerm& t : terms) {
    const Vec3 force = -t.stiffness * (vertex(m.rest, t.vertex) + h * v - t.target);
    const Vec3 expected = -drag * 0.5 * n.dot(v - wind.velocity) * n / 3.0;
    EXPECT_LE((force - expected).norm(), 1e-12 * expected.norm()) << t.vertex;
  }
}

TEST(Wind, NoAirMeansNoTerms) {
  std::vector<WindTerm> terms;
  const Model m = oneTriangle();
  makeWindTerms(m, m.rest, WindSettings{Vec3(3, 0, 0), 0.0, 0.0, 1.0, 1}, 0.01, 0.0, terms);
  EXPECT_TRUE(terms.empty());
}

TEST(Wind, GustsAreSmoothBoundedAndSeeded) {
  const WindSettings a{Vec3(10, 0, 0), 1.0, 0.5, 0.5, 7}, b{Vec3(10, 0, 0), 1.0, 0.5, 0.5, 8};
  double previous = windVelocity(a, 0.0).x(), largest_jump = 0, low = 1e9, high = -1e9;
  bool seeds_differ = false;
  for (int i = 1; i <= 4000; ++i) {
    const double t = i * 1e-3, w = windVelocity(a, t).x();
    EXPECT_EQ(w, windVelocity(a, t).x());  // deterministic
    largest_jump = std::max(largest_jump, std::abs(w - previous));
    low = std::min(low, w), high = std::max(high, w);
    seeds_differ |= w != windVelocity(b, t).x();
    previous = w;
  }
  EXPECT_GE(low, 5.0);   // 10 (1 - 0.5)
  EXPECT_LE(high, 15.0);  // 10 (1 + 0.5)
  EXPECT_GT(high - low, 2.0) << "gusts vary";
  // Smoothstep between values at most 2 apart over 0.5 s: |dw/dt| <= 10 x 0.5 x 2 x 1.5 / 0.5 = 30 per second.
  EXPECT_LE(largest_jump, 30.0 * 1e-3 + 1e-12);
  EXPECT_TRUE(seeds_differ);
}

Scene clothInWind(const std::string& wind) {
  Scene scene = parseScene(test::clothSceneJson(), "inline.json");
  scene.settings.threads = 1;
  scene.settings.gravity.setZero();
  applyOverride(scene, "wind.drag=20");
  applyOverride(scene, "wind.velocity=" + wind);
  return scene;
}

double meanNormalDisplacement(const Simulation& sim) {
  double sum = 0;
  for (int v = 0; v < sim.model().vertexCount(); ++v) sum += vertex(sim.positions(), v).y() - vertex(sim.model().rest, v).y();
  return sum / sim.model().vertexCount();
}

TEST(Wind, PushesClothDownwindAndStillAirDoesNotMoveIt) {
  Simulation windy(clothInWind("0,3,0")), calm(clothInWind("3,0,0"));  // along the normal; in the cloth's plane
  for (int f = 0; f < 10; ++f) windy.step(), calm.step();
  EXPECT_GT(meanNormalDisplacement(windy), 1e-3);
  EXPECT_EQ((calm.positions() - calm.model().rest).norm(), 0.0) << "air sliding along a flat cloth exerts no force";
  EXPECT_GT(windy.lastSolve().parts.wind, 0.0);
}

}  // namespace
}  // namespace qnsim
