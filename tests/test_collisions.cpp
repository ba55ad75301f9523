// Colliders and contacts (paper Sec. 4.3): signed distances of every shape, the activation rule with
// its release of separating vertices (claim C27: no glue), moving colliders, optional friction, and
// contacts that stay out of A (one factorisation for a whole run with collisions).
#include <gtest/gtest.h>

#include <random>

#include "core/collision/contacts.h"
#include "core/common/parallel.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

std::vector<Collider> everyShape() {
  std::vector<Collider> shapes(5);
  const Mat3 tilt = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  for (Collider& c : shapes) c.position = Vec3(0.1, -0.2, 0.3), c.rotation = tilt;
  shapes[1].shape = Collider::Shape::Sphere;
  shapes[2].shape = Collider::Shape::Box, shapes[2].half_extents = Vec3(0.3, 0.5, 0.7);
  shapes[3].shape = Collider::Shape::Capsule, shapes[3].radius = 0.3, shapes[3].half_length = 0.6;
  shapes[4].shape = Collider::Shape::Torus, shapes[4].major_radius = 0.8, shapes[4].minor_radius = 0.25;
  return shapes;
}

TEST(Colliders, ClosestPointsLieOnTheSurfaceAlongTheNormal) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (const Collider& c : everyShape())
    for (int i = 0; i < 500; ++i) {
      const Vec3 p = c.position + Vec3(u(rng), u(rng), u(rng));
      const SurfacePoint s = closestSurfacePoint(c, p);
      EXPECT_NEAR(s.normal.norm(), 1.0, 1e-12);
      EXPECT_LE((p - (s.point + s.distance * s.normal)).norm(), 1e-12) << "shape " << int(c.shape);
      EXPECT_NEAR(closestSurfacePoint(c, s.point).distance, 0.0, 1e-12) << "shape " << int(c.shape);
      // The distance's gradient is the normal (away from the medial axis, where it has a kink).
      const double h = 1e-7;
      Vec3 gradient;
      for (int k = 0; k < 3; ++k)
        gradient[k] = (closestSurfacePoint(c, p + h * Vec3::Unit(k)).distance - closestSurfacePoint(c, p - h * Vec3::Unit(k)).distance) / (2 * h);
      if (std::abs(gradient.norm() - 1.0) < 1e-4) {
        EXPECT_LE((gradient - s.normal).norm(), 1e-5) << "shape " << int(c.shape);
      }
    }
}

TEST(Colliders, KnownDistances) {
  const std::vector<Collider> s = everyShape();
  const auto distance = [](const Collider& c, const Vec3& local) { return closestSurfacePoint(c, c.position + c.rotation * local).distance; };
  EXPECT_NEAR(distance(s[0], Vec3(0.3, -0.25, 2)), -0.25, 1e-12);       // plane: local y
  EXPECT_NEAR(distance(s[1], Vec3(0, 0, 0)), -0.5, 1e-12);              // sphere centre
  EXPECT_NEAR(distance(s[2], Vec3(0.1, 0, 0)), -0.2, 1e-12);            // box: nearest face x
  EXPECT_NEAR(distance(s[2], Vec3(0.6, 0.9, 0)), 0.5, 1e-12);           // outside a box edge
  EXPECT_NEAR(distance(s[3], Vec3(0, 0, 1.2)), 0.3, 1e-12);             // beyond a capsule cap
  EXPECT_NEAR(distance(s[4], Vec3(0, 0, 0)), 0.8 - 0.25, 1e-12);        // centre of the torus hole
  EXPECT_NEAR(distance(s[4], Vec3(0, 0.8, 0)), -0.25, 1e-12);           // centre of the tube
}

// The bounding sphere the contact search skips vertices by holds every surface point of each shape.
TEST(Colliders, TheBoundingRadiusHoldsTheSurface) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (const Collider& c : everyShape()) {
    if (c.shape == Collider::Shape::Plane) {
      EXPECT_TRUE(std::isinf(boundingRadius(c)));
      continue;
    }
    double farthest = 0;
    for (int i = 0; i < 4000; ++i)
      farthest = std::max(farthest, (closestSurfacePoint(c, c.position + Vec3(u(rng), u(rng), u(rng))).point - c.position).norm());
    EXPECT_LE(farthest, boundingRadius(c) * (1 + 1e-12)) << "shape " << int(c.shape);
    EXPECT_GT(farthest, 0.9 * boundingRadius(c)) << "shape " << int(c.shape) << ": a bound, but not a loose one";
  }
}

// The cull before every closest-point query: it never skips a point the query finds within reach
// (nor one inside), also at the edge of reach, and it skips what the bounding sphere alone would not
// (the torus's hole, the capsule's and the box's sides).
TEST(Colliders, TheCullKeepsEveryPointWithinReachAndSkipsTheRest) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-1.5, 1.5), fraction(0.0, 1.0);
  for (const Collider& c : everyShape()) {
    int inside_ball_skipped = 0;
    for (int i = 0; i < 4000; ++i) {
      const Vec3 p = c.position + Vec3(u(rng), u(rng), u(rng));
      const double distance = closestSurfacePoint(c, p).distance;
      const double reach = i % 2 ? 0.2 * fraction(rng) : std::max(distance, 0.0);  // every other exactly at reach
      if (distance <= reach) {
        EXPECT_TRUE(mayReach(c, p, reach)) << "shape " << int(c.shape) << " distance " << distance;
      }
      if (distance > reach + 1e-9) {
        const double ball = boundingRadius(c) + reach;
        inside_ball_skipped += !mayReach(c, p, reach) && (p - c.position).norm() < ball;
      }
    }
    if (c.shape != Collider::Shape::Plane && c.shape != Collider::Shape::Sphere) {
      EXPECT_GT(inside_ball_skipped, 200) << "shape " << int(c.shape) << ": no tighter than the bounding sphere";
    }
  }
}

// The contact set of a model scattered around every shape: the terms of a plain search over every
// vertex and collider (closest point, margin, release rule), in collider then vertex order, for any
// thread count.
TEST(Contacts, TheSetIsThatOfAPlainSearchAtAnyThreadCount) {
  const BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "corotated"})"));
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> u(-1.2, 1.2);
  const std::vector<Collider> colliders = everyShape();
  VecX x(3 * 3000), previous(3 * 3000);
  for (int v = 0; v < 3000; ++v) {
    vertex(x, v) = colliders[0].position + Vec3(u(rng), u(rng), u(rng));
    vertex(previous, v) = vertex(x, v) + 0.02 * Vec3(u(rng), u(rng), u(rng));
  }
  const ContactParams params{0.1, 1e3, 0.05, 0.5, 0.01};
  std::vector<std::pair<int, int>> expected;  // collider, vertex
  for (int c = 0; c < 5; ++c)
    for (int v = 0; v < 3000; ++v) {
      const SurfacePoint s = closestSurfacePoint(colliders[c], vertex(x, v));
      const double separating = ((vertex(x, v) - vertex(previous, v)) / params.time_step).dot(s.normal);
      if (s.distance <= params.margin && !(s.distance > 0 && separating * params.time_step > params.margin)) expected.push_back({c, v});
    }
  ASSERT_GT(expected.size(), 500u);
  for (int threads : {1, 3}) {
    setThreadCount(threads);
    Objective objective(built.model);
    refreshContacts(colliders, x, previous, params, objective);
    ASSERT_EQ(objective.contacts.size(), expected.size()) << threads << " threads";
    for (size_t i = 0; i < expected.size(); ++i) {
      const auto [c, v] = expected[i];
      const SurfacePoint s = closestSurfacePoint(colliders[c], vertex(x, v));
      EXPECT_EQ(objective.contacts[i].vertex, v) << i;
      EXPECT_EQ(objective.contacts[i].point, s.point) << i;
      EXPECT_EQ(objective.contacts[i].normal, s.normal) << i;
    }
    EXPECT_GT(objective.frictions.size(), 100u);
  }
  setThreadCount(0);
}

// One vertex of a tiny model against a ground plane, for the activation rule (contact margin 5 mm,
// time step 0.1 s).
struct OneVertex {
  BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "corotated"})"));
  Objective objective{built.model};
  VecX x = built.model.rest, previous = built.model.rest;
  std::vector<Collider> ground{Collider{}};
  ContactParams params{0.1, 1e3, 0.005, 0.0, 0.01};
  // Is vertex 0 a contact when it moves from height `from` to `to` in one frame?
  bool active(double from, double to) {
    for (Eigen::Index v = 0; v < x.size() / 3; ++v) vertex(x, v).y() = vertex(previous, v).y() = 5.0;  // every other vertex far away
    x[1] = to;
    previous[1] = from;
    refreshContacts(ground, x, previous, params, objective);
    return objective.contacts.size() == 1;
  }
};

TEST(Contacts, C27ActivationRuleReleasesSeparatingVertices) {
  OneVertex t;
  EXPECT_TRUE(t.active(0.0, -0.01)) << "penetrating and approaching";
  EXPECT_TRUE(t.active(-0.02, -0.01)) << "still inside while separating: the one-sided term only pushes out";
  EXPECT_TRUE(t.active(0.01, 0.002)) << "touching (within the margin) and approaching";
  EXPECT_FALSE(t.active(-0.01, 0.002)) << "touching and separating: released";
  EXPECT_TRUE(t.active(0.001, 0.002)) << "touching, drifting up by less than the margin: resting contact stays";
  EXPECT_FALSE(t.active(0.0, 0.01)) << "outside the margin";
  // A moving collider: what counts is the velocity relative to its surface.
  t.ground[0].velocity = Vec3(0, 1, 0);
  EXPECT_TRUE(t.active(0.002, 0.002)) << "a vertex at rest with the floor rising into it";
  t.ground[0].velocity = Vec3(0, -1, 0);
  EXPECT_FALSE(t.active(0.002, 0.002)) << "a vertex at rest with the floor dropping away";
  EXPECT_FALSE(t.active(0.05, 0.002)) << "falling, but slower than the floor";
}

TEST(Contacts, C27ActiveContactsNeverPullTowardsTheCollider) {
  OneVertex t;
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-0.05, 0.05);
  for (const Collider& c : everyShape()) {
    t.ground = {c};
    for (int trial = 0; trial < 20; ++trial) {
      VecX x = t.built.model.rest, previous = x;
      for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = c.position[i % 3] + 10 * u(rng), previous[i] = x[i] + u(rng);
      refreshContacts(t.ground, x, previous, t.params, t.objective);
      // The force of each term alone: at x, and at a point moved above its tangent plane.
      const std::vector<ContactTerm> terms = t.objective.contacts;
      const auto contactForce = [&t](const ContactTerm& term, const VecX& at) {
        VecX with, without;
        t.objective.contacts = {term};
        t.objective.evaluate(at, &with);
        t.objective.contacts.clear();
        t.objective.evaluate(at, &without);
        return Vec3(vertex(without, term.vertex) - vertex(with, term.vertex));
      };
      for (const ContactTerm& term : terms) {
        EXPECT_GE(contactForce(term, x).dot(term.normal), -1e-9) << "shape " << int(c.shape) << ": the force pushes out";
        VecX outside = x;
        vertex(outside, term.vertex) = term.point + 0.01 * term.normal;
        EXPECT_LE(contactForce(term, outside).norm(), 1e-9) << "above the tangent plane there is no force at all";
      }
    }
  }
}

std::string droppedBox(const std::string& extra_top = "", const std::string& velocity = "[0, 0, 0]") {
  return R"({"version": 1, "gravity": [0, -9.81, 0], "contact_stiffness": 1e5)" + extra_top + R"(,
    "bodies": [{"name": "box", "shape": {"type": "box", "size": [0.2, 0.2, 0.2], "cells": [3, 3, 3]}, "translate": [0, 0.15, 0],
    "velocity": )" + velocity + R"(, "density": 500, "materials": [{"model": "corotated", "mu": 1e5, "lambda": 4e5}]}],
    "colliders": [{"type": "plane", "name": "ground"}]})";
}

TEST(Contacts, C4StayOutOfTheMatrixAndKeepTheBodyOnTheGround) {
  Simulation sim(parseScene(droppedBox(), "drop.json"));
  int max_contacts = 0;
  for (int f = 0; f < 45; ++f) {
    sim.step();
    max_contacts = std::max(max_contacts, sim.lastFrame().active_contacts);
    EXPECT_LE(sim.lastFrame().max_penetration, 0.002) << "frame " << f + 1;  // 1 % of the box
  }
  EXPECT_GT(max_contacts, 0);
  EXPECT_GT(sim.lastFrame().active_contacts, 0) << "resting on the ground";
  EXPECT_NEAR(sim.lastFrame().com.y(), 0.1, 0.005);
  EXPECT_EQ(sim.lastFrame().factorizations, 1);
}

TEST(Contacts, C27ABodyLeavingTheGroundIsNotHeldBack) {
  // Let a box settle on the ground, then throw it upwards: with and without the ground it must move
  // identically, because every contact separates and is released.
  Simulation resting(parseScene(droppedBox(), "drop.json"));
  for (int f = 0; f < 45; ++f) resting.step();
  ASSERT_GT(resting.lastFrame().active_contacts, 0);
  Scene free_scene = parseScene(droppedBox(), "drop.json");
  free_scene.colliders.clear();
  Simulation free_flight(free_scene);
  VecX v = resting.velocities();
  for (Eigen::Index i = 1; i < v.size(); i += 3) v[i] += 1.0;
  test::setMotion(resting, resting.positions(), v);
  test::setMotion(free_flight, resting.positions(), v);
  for (int f = 0; f < 3; ++f) {
    resting.step();
    free_flight.step();
    EXPECT_EQ(resting.lastFrame().active_contacts, 0);
    EXPECT_LE((resting.positions() - free_flight.positions()).norm(), 1e-12);
  }
}

TEST(Contacts, MovingColliderPushesAndReleases) {
  // A box lies on the ground; a wide plate comes down onto it, squeezes it, and goes back up.
  const std::string plate = R"(, {"type": "box", "name": "plate", "center": [0, 0.45, 0], "half_extents": [1, 0.1, 1],
      "motion": [{"type": "keys", "keys": [{"time": 0}, {"time": 1, "translate": [0, -0.18, 0]}, {"time": 2}]}]}])";
  std::string json = droppedBox();
  json.replace(json.rfind("}]"), 2, "}" + plate);
  Simulation sim(parseScene(json, "plate.json"));
  double lowest_top = 1;
  for (int f = 0; f < 90; ++f) {
    sim.step();
    const auto rows = asRows(sim.positions());
    lowest_top = std::min(lowest_top, rows.col(1).maxCoeff());
    EXPECT_LE(sim.lastFrame().max_penetration, 0.004) << "frame " << f + 1;
  }
  EXPECT_LT(lowest_top, 0.18) << "squeezed by the plate";
  EXPECT_NEAR(asRows(sim.positions()).col(1).maxCoeff(), 0.2, 0.01) << "back to its size once the plate has left";
  EXPECT_EQ(sim.lastFrame().factorizations, 1);
}

TEST(Friction, GradientAndHessianMatchFiniteDifferences) {
  // A soft material, so that round-off in the elastic energy does not swamp the differences.
  BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "corotated", "mu": 1, "lambda": 1})"));
  Objective objective(built.model);
  objective.setInertia(built.model.rest, 900.0);
  const Vec3 n = Vec3(0.2, 1, -0.3).normalized();
  objective.frictions.push_back({4, Vec3(vertex(built.model.rest, 4)) + Vec3(0.01, 0, 0.02), n, 3.0, 1e-3});  // sliding
  objective.frictions.push_back({7, Vec3(vertex(built.model.rest, 7)) + Vec3(2e-4, 0, -1e-4), n, 5.0, 1e-3});  // sticking
  const VecX& x = built.model.rest;
  VecX gradient;
  objective.evaluate(x, &gradient);
  EXPECT_LE((gradient - test::finiteDifferenceGradient(objective, x, 1e-7)).norm(), 1e-6 * gradient.norm());
  // Hessian blocks of the friction vertices against differences of the gradient.
  const SparseMatrix H = objective.hessian(x, false);
  for (int v : {4, 7}) {
    for (int k = 0; k < 3; ++k) {
      VecX xp = x, xm = x, gp, gm;
      xp[3 * v + k] += 1e-7;
      xm[3 * v + k] -= 1e-7;
      objective.evaluate(xp, &gp);
      objective.evaluate(xm, &gm);
      const Vec3 column = ((gp - gm) / 2e-7).segment<3>(3 * v);
      const Vec3 exact = Eigen::MatrixXd(H).block<3, 1>(3 * v, 3 * v + k);
      EXPECT_LE((column - exact).norm(), 1e-4 * exact.norm() + 1e-3) << "vertex " << v << " column " << k;
    }
  }
}

double slidingDistance(const std::string& friction, const std::string& contact_model = "penalty") {
  Scene scene = parseScene(droppedBox(friction, "[2, 0, 0]"), "slide.json");
  scene.bodies[0].mesh.V.col(1).array() -= 0.0499;  // start on the ground
  applyOverride(scene, "contact.model=" + contact_model);
  Simulation sim(scene);
  for (int f = 0; f < 45; ++f) sim.step();
  EXPECT_EQ(sim.lastFrame().factorizations, 1);
  return sim.lastFrame().com.x();
}

TEST(Friction, CoulombFrictionStopsASlidingBoxAndIsOffByDefault) {
  const double frictionless = slidingDistance("");
  EXPECT_NEAR(frictionless, 2.0 * 1.5, 0.05) << "slides on at 2 m/s for 1.5 s";
  // mu = 0.5: decelerates at mu g, so it stops after v^2 / (2 mu g) = 0.41 m.
  const double stopped = slidingDistance(R"(, "contact_friction": 0.5)");
  EXPECT_NEAR(stopped, 4.0 / (2 * 0.5 * 9.81), 0.1);
}

// The barrier's lagged friction (barrier.h) takes its normal forces from the barrier at the end of the
// frame before: the box's weight once it rests, so it stops where Coulomb's law says, as under
// penalties, in the paper's 10 iterations. (When the frame's start lifted resting vertices to d^/2 and
// ours' directions were filtered of their motion into the ground, the frames ended with the barrier
// holding 5 % of the box's weight, and it slid 2.7 m instead of 0.41.)
TEST(Friction, TheBarriersLaggedFrictionStopsASlidingBoxWhereCoulombSays) {
  EXPECT_NEAR(slidingDistance("", "barrier"), 2.0 * 1.5, 0.05) << "frictionless: slides on";
  EXPECT_NEAR(slidingDistance(R"(, "contact_friction": 0.5)", "barrier"), 4.0 / (2 * 0.5 * 9.81), 0.05);
  EXPECT_NEAR(slidingDistance(R"(, "contact_friction": 0.25)", "barrier"), 4.0 / (2 * 0.25 * 9.81), 0.1);
}

}  // namespace
}  // namespace qnsim
