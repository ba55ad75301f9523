// Barrier contact: IPC's barrier and its derivatives against finite differences, the
// collider barrier's gradient, the collision bound of a step, and a box thrown at the ground with
// contact.model=barrier under every line search: no vertex ever below the ground, where penalties
// let it sink in.
#include <gtest/gtest.h>

#include <random>

#include "core/collision/barrier.h"
#include "core/collision/self_barrier.h"
#include "core/collision/intersection_check.h"
#include "core/model/inversion_bound.h"
#include "qnsim/error.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

TEST(Barrier, DerivativesMatchFiniteDifferencesAndVanishAtTheReach) {
  const double dhat = 0.01;
  for (double d : {1e-5, 1e-4, 0.001, 0.003, 0.005, 0.0099}) {
    const double h = 1e-7 * d;
    EXPECT_NEAR(barrierDerivative(d, dhat), (barrier(d + h, dhat) - barrier(d - h, dhat)) / (2 * h), 1e-6 * std::abs(barrierDerivative(d, dhat)) + 1e-12) << d;
    EXPECT_NEAR(barrierSecondDerivative(d, dhat), (barrierDerivative(d + h, dhat) - barrierDerivative(d - h, dhat)) / (2 * h),
                1e-5 * std::abs(barrierSecondDerivative(d, dhat)) + 1e-9)
        << d;
    EXPECT_GT(barrier(d, dhat), 0);
    EXPECT_LT(barrierDerivative(d, dhat), 0);  // pushes apart
  }
  // C2 at the reach: value, slope and curvature all reach zero.
  EXPECT_NEAR(barrier(dhat * (1 - 1e-6), dhat), 0, 1e-15);
  EXPECT_NEAR(barrierDerivative(dhat * (1 - 1e-6), dhat), 0, 1e-12);
  EXPECT_NEAR(barrierSecondDerivative(dhat * (1 - 1e-6), dhat), 0, 1e-5);
  EXPECT_EQ(barrier(dhat, dhat), 0);
  EXPECT_TRUE(std::isinf(barrier(0, dhat)));
  EXPECT_TRUE(std::isinf(barrier(-1e-3, dhat)));
}

std::vector<Collider> someColliders() {
  Collider sphere;
  sphere.shape = Collider::Shape::Sphere;
  sphere.radius = 0.5;
  sphere.position = Vec3(0, 1, 0);
  Collider torus;
  torus.shape = Collider::Shape::Torus;
  torus.major_radius = 0.6, torus.minor_radius = 0.2;
  torus.position = Vec3(2, 1.0, 0);
  torus.rotation = Eigen::AngleAxisd(0.7, Vec3(1, 0, 0)).toRotationMatrix();
  return {Collider{}, sphere, torus};  // and the ground plane y = 0
}

// Vertices just outside the colliders' surfaces, each within the reach of one collider only.
VecX nearSurfaces(const std::vector<Collider>& colliders, double dhat, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1), gap(0.05, 0.95);
  VecX x(3 * 30);
  for (int v = 0; v < 30;) {
    const Collider& c = colliders[v % colliders.size()];
    const SurfacePoint s = closestSurfacePoint(c, c.position + c.rotation * Vec3(u(rng), u(rng), u(rng)));
    const Vec3 p = s.point + gap(rng) * dhat * s.normal;
    int near = 0;
    for (const Collider& other : colliders) near += closestSurfacePoint(other, p).distance < dhat;
    if (near == 1) vertex(x, v++) = p;
  }
  return x;
}

TEST(Barrier, ColliderEnergyGradientMatchesFiniteDifferences) {
  const std::vector<Collider> colliders = someColliders();
  ContactBarrier b(0.05, 0.1, 1.0 / 30, 9.81);
  b.beginFrame(colliders, nullptr);
  b.setStiffness(7.0);
  std::mt19937 rng(2);
  const VecX x = nearSurfaces(colliders, 0.05, rng);
  VecX gradient = VecX::Zero(x.size());
  const double e = b.energy(x, &gradient);
  EXPECT_GT(e, 0);
  EXPECT_EQ(b.stats(x).pairs, 30);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double h = 1e-8;
    VecX plus = x, minus = x;
    plus[i] += h, minus[i] -= h;
    const double fd = (b.energy(plus, nullptr) - b.energy(minus, nullptr)) / (2 * h);
    EXPECT_NEAR(gradient[i], fd, 1e-5 * (std::abs(fd) + 1.0)) << i;
  }
}

TEST(Barrier, StepBoundKeepsEveryVertexOutside) {
  const std::vector<Collider> colliders = someColliders();
  ContactBarrier b(0.05, 0.1, 1.0 / 30, 9.81);
  b.beginFrame(colliders, nullptr);
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  int limited = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const VecX x = nearSurfaces(colliders, 0.05, rng);
    VecX d(x.size());
    for (Eigen::Index i = 0; i < d.size(); ++i) d[i] = u(rng);
    const double alpha = b.stepBound(x, d, 1.0);
    limited += alpha < 1;
    for (int k = 0; k <= 100; ++k) EXPECT_TRUE(std::isfinite(b.energy(x + (alpha * k / 100) * d, nullptr))) << trial << " " << k;
  }
  EXPECT_GT(limited, 10);
}

// A box thrown down at the ground at 6 m/s (it crosses 20 cm per frame: the whole box height in two frames).
Scene thrownBox(const std::string& model, const std::string& line_search) {
  return test::thrownBox(R"({"model": "corotated", "mu": 2e4, "lambda": 5e4})", 6.0,
                         {"contact.model=" + model, "solver.line_search=" + line_search});
}

TEST(Barrier, ThrownBoxNeverEntersTheGroundUnderAnyLineSearch) {
  for (const char* line_search : {"armijo", "interpolate", "wolfe", "none"}) {
    Simulation sim(thrownBox("barrier", line_search));
    sim.setIntersectionCheck(true);
    double lowest = INFINITY;
    int limited = 0;
    for (int f = 0; f < 20; ++f) {
      sim.step();
      const FrameRecord& r = sim.lastFrame();
      ASSERT_FALSE(r.rolled_back) << line_search << " frame " << r.frame;
      EXPECT_EQ(r.intersections, 0) << line_search << " frame " << r.frame;
      limited += r.ccd_step < 1;
      for (int v = 0; v < sim.model().vertexCount(); ++v) lowest = std::min(lowest, vertex(sim.positions(), v).y());
    }
    EXPECT_GT(lowest, 0.0) << line_search;
    EXPECT_LT(lowest, 0.01) << line_search;  // it did reach the ground
    EXPECT_GT(limited, 0) << line_search;    // and collision detection had to hold steps back
  }
  // The same throw with penalties sinks in.
  Simulation penalty(thrownBox("penalty", "interpolate"));
  double deepest = 0;
  for (int f = 0; f < 20; ++f) {
    penalty.step();
    deepest = std::max(deepest, penalty.lastFrame().max_penetration);
  }
  EXPECT_GT(deepest, 1e-3);
}

// Anderson-accelerated PD and ADMM bound their steps as Algorithm 1 does (ADMM's backtracking starts at
// collision detection's bound) and run the barrier; the methods that cannot (VBD, Jacobi, position-based
// FEM) run the same throw with the penalties' forces, collision detection cutting every move they make,
// so that nothing enters the ground under them either (under the penalties alone it sinks in).
// Anderson's accelerated iterates flatten the bottom tets of this throw and turn 12 of them inside out
// (ADMM's global steps 20), so that the box's surface crosses itself (not a contact: nothing enters the
// ground); the inversion guard, which bounds their steps as collision detection does, holds them.
TEST(Barrier, MethodsThatBoundTheirStepsRunTheBarrierTheOthersHaveTheirMovesCut) {
  for (const char* method : {"pd", "newton", "anderson", "admm", "vbd", "jacobi", "pbd", "xpbd"}) {
    const std::string name = method;
    const bool barrier = name == "pd" || name == "newton" || name == "anderson" || name == "admm";
    for (const char* model : {"barrier", "penalty"}) {
      if (barrier && std::string(model) == "penalty") continue;
      Scene scene = thrownBox(model, "armijo");
      applyOverride(scene, "solver.method", method);
      if (name == "anderson" || name == "admm") applyOverride(scene, "solver.inversion_guard=true");
      Simulation sim(scene);
      sim.setIntersectionCheck(true);
      int intersecting = 0, near = 0;
      double lowest = INFINITY;
      for (int f = 0; f < 12; ++f) {
        sim.step();
        ASSERT_FALSE(sim.lastFrame().rolled_back) << method << " frame " << sim.lastFrame().frame;
        intersecting += sim.lastFrame().intersections;
        near += sim.lastFrame().barrier_pairs;
        for (int v = 0; v < sim.model().vertexCount(); ++v) lowest = std::min(lowest, vertex(sim.positions(), v).y());
      }
      EXPECT_EQ(internals(sim).barrier.has_value(), barrier && std::string(model) == "barrier") << method;
      if (std::string(model) == "penalty") {
        EXPECT_GT(intersecting, 0) << method;  // it sinks in
        continue;
      }
      EXPECT_EQ(intersecting, 0) << method;
      EXPECT_GT(lowest, 0.0) << method;
      EXPECT_LT(lowest, 0.01) << method;  // it did reach the ground
      EXPECT_GT(near, 0) << method;       // vertices within the barrier's reach d^ of it
    }
  }
}

// A vertex of a method without a line search that would pass into the ground slides along it from d^/2
// above it instead, keeping its motion along the surface less what friction takes; one that moves away
// keeps its whole move.
TEST(Barrier, CutMovesSlideAlongTheGroundAndLeaveOthersWhole) {
  const std::vector<Collider> ground = {Collider{}};  // the plane y = 0
  const double dhat = 0.01;
  ContactBarrier b(dhat, 0.1, 1.0 / 30, 9.81);
  b.beginFrame(ground, nullptr);
  VecX from(6), to(6);
  vertex(from, 0) = Vec3(0, 0.05, 0), vertex(to, 0) = Vec3(0.3, -0.05, 0.1);  // down through the ground
  vertex(from, 1) = Vec3(1, 0.05, 0), vertex(to, 1) = Vec3(1.2, 0.2, 0);      // up and away
  const VecX wanted = to;
  VecX rough = to;
  b.limitMoves(from, to, 0.0);
  EXPECT_GE(to[1], 0.5 * dhat);  // stopped short of d^/2 (collision detection stops early, never late)
  EXPECT_LT(to[1], 2 * dhat);
  EXPECT_NEAR(to[0], 0.3, 1e-12);  // then slid: the whole of its motion along the ground
  EXPECT_NEAR(to[2], 0.1, 1e-12);
  EXPECT_EQ(Vec3(vertex(to, 1)), Vec3(vertex(wanted, 1)));
  // With friction the slide is shortened by mu times the motion into the ground (about 5 cm here): by
  // 2.5 cm at mu = 0.5, to nothing at mu = 10; the vertex moving away is left alone.
  const Vec3 met = vertex(from, 0) + (to[1] - 0.05) / -0.1 * (vertex(wanted, 0) - vertex(from, 0));  // where it stopped
  const double slide = (Vec3(vertex(to, 0)) - met).norm(), into = met.y() - (-0.05);
  VecX sticky = rough;
  b.limitMoves(from, rough, 0.5);
  EXPECT_NEAR((Vec3(vertex(rough, 0)) - met).norm(), slide - 0.5 * into, 1e-9);
  EXPECT_NEAR(rough[1], to[1], 1e-15);
  EXPECT_EQ(Vec3(vertex(rough, 1)), Vec3(vertex(wanted, 1)));
  b.limitMoves(from, sticky, 10.0);
  EXPECT_LT((Vec3(vertex(sticky, 0)) - met).norm(), 1e-12);
}

// A box sliding at 2 m/s on the ground under a method without a line search and contact.model=barrier:
// frictionless it keeps its speed (2.67 m in 40 frames); with mu = 0.5 the riding vertices' position-based
// friction stops VBD's box after 0.50 m (Coulomb: v^2 / (2 mu g) = 0.41 m). xpbd's friction is weaker
// (1.38 m: a normal correction spread over its sweeps), but it acts.
double slid(const std::string& method, double friction) {
  Scene scene = parseScene(R"({"version": 1, "frames": 40, "bodies": [{"name": "box", "shape": {"type": "box", "size": [0.2, 0.2, 0.2],
    "cells": [2, 2, 2]}, "translate": [0, 0.1002, 0], "velocity": [2, 0, 0], "density": 500, "materials": [{"model": "neo_hookean",
    "mu": 1e6, "lambda": 4e6}]}], "colliders": [{"type": "plane", "name": "ground"}]})",
                           "inline.json", {"contact.model=barrier", "solver.method=" + method, "contact_friction=" + std::to_string(friction)});
  Simulation sim(scene);
  for (int f = 0; f < 40; ++f) sim.step();
  return sim.lastFrame().com.x();
}

TEST(Barrier, CutMovesFeelFrictionAlongTheGround) {
  EXPECT_NEAR(slid("vbd", 0.0), 2.0 * 40 / 30, 1e-3);
  const double vbd = slid("vbd", 0.5);
  EXPECT_GT(vbd, 0.41 * 0.9);
  EXPECT_LT(vbd, 0.41 * 1.5);
  EXPECT_LT(slid("xpbd", 0.5), 0.6 * slid("xpbd", 0.0));
}

// The exact solve of --reference and the Compare tab under the barrier: x* is solved from the barrier's
// start with every step bounded, so errors are finite, start at 1 and never fall below 0; a method
// that cannot bound its steps is refused by name.
TEST(Barrier, ReferenceAndCompareSolveUnderTheBarrier) {
  Simulation sim(thrownBox("barrier", "armijo"));
  sim.setReferenceEnabled(true);
  sim.setIntersectionCheck(true);
  for (int f = 0; f < 8; ++f) {  // through the impact (frames 2-4)
    sim.step();
    ASSERT_FALSE(sim.lastFrame().rolled_back);
    EXPECT_EQ(sim.lastFrame().intersections, 0);
    const std::vector<double>& errors = sim.lastRelativeErrors();
    ASSERT_FALSE(errors.empty());
    EXPECT_DOUBLE_EQ(errors.front(), 1.0) << "frame " << sim.frame();
    for (double e : errors) {
      EXPECT_TRUE(std::isfinite(e)) << "frame " << sim.frame();
      EXPECT_GE(e, -1e-9) << "frame " << sim.frame();
    }
  }
  const VecX before = sim.positions();
  const std::vector<MethodTrace> traces = sim.compareNextFrame({{"ours", {"solver.method=qn"}}, {"pd", {"solver.method=pd"}}});
  ASSERT_EQ(traces.size(), 2u);
  for (const MethodTrace& t : traces) {
    ASSERT_FALSE(t.rel_error.empty()) << t.label;
    EXPECT_DOUBLE_EQ(t.rel_error.front(), 1.0) << t.label;
    EXPECT_LT(t.rel_error.back(), 1.0) << t.label;
    for (double e : t.rel_error) EXPECT_TRUE(std::isfinite(e) && e >= -1e-9) << t.label;
  }
  EXPECT_EQ(sim.positions(), before);  // a comparison does not advance the simulation
  try {
    sim.compareNextFrame({{"ours", {"solver.method=qn"}}, {"vbd", {"solver.method=vbd"}}});
    FAIL() << "vbd cannot run the barrier";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'vbd'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("contact.model=penalty"), std::string::npos) << e.what();
  }
  sim.step();  // and the simulation goes on after both
  EXPECT_FALSE(sim.lastFrame().rolled_back);
}

// The barrier stays out of A, so a quasi-Newton direction pushes vertices resting on a collider into
// it and collision detection shortens the whole step to almost nothing: without the direction filter
// (ContactBarrier::filterDirection) a box resting on the ground ended 10 iterations at a relative
// error of 0.98 (median); with it the frames converge.
TEST(Barrier, ABoxRestingOnTheGroundConvergesUnderTheBarrier) {
  Simulation sim(thrownBox("barrier", "armijo"));
  sim.setReferenceEnabled(true);
  std::vector<double> last;
  for (int f = 0; f < 30; ++f) {
    sim.step();
    if (f >= 10 && sim.lastFrame().barrier_pairs > 0) last.push_back(sim.lastRelativeErrors().back());
  }
  ASSERT_GE(last.size(), 10u);  // resting on the ground
  std::sort(last.begin(), last.end());
  EXPECT_LT(last[last.size() / 2], 0.5);
}

// A sphere driven down at 1.2 m/s (4 cm a frame, a quarter of a cell) into a soft box resting on the
// ground, which it squeezes to half its height: the bunny through the torus in small. The solve starts
// from x_n moved with the sphere through the frame, the vertices it meets riding ahead of it
// (ContactBarrier::sweptStart), and ours' initial Hessian sees the barrier's curvature along the
// contact normals (initial_hessian.cpp): the Neo-Hookean box keeps every tet positive (det F >= 0.38
// here) with no guard; without the curvature in the step it inverted 4. (A corotated box under the guard
// comes within 1e-6 of a flat tet in the Release build and inverts 2 in the sanitizers' build: where the
// sphere outruns what the body can give way in a frame the leftover is carried out along its normal;
// contact.push moves the sphere within the solve instead, test_collider_push.cpp.)
TEST(Barrier, ASphereDrivenIntoABoxPushesItsVerticesAheadOfIt) {
  Simulation sim(test::squeezedBox("neo_hookean", {"solver.inversion_guard=false"}));
  sim.setIntersectionCheck(true);
  std::vector<int> axis;  // the vertices on the box's vertical centre line, under the sphere
  for (int v = 0; v < sim.model().vertexCount(); ++v)
    if (std::abs(vertex(sim.positions(), v).x()) < 1e-9 && std::abs(vertex(sim.positions(), v).z()) < 1e-9) axis.push_back(v);
  ASSERT_EQ(axis.size(), 5u);
  int inverted = 0, crossing = 0, pairs = 0;
  double lowest_top = INFINITY;
  for (int f = 0; f < 30; ++f) {
    sim.step();
    const FrameRecord& r = sim.lastFrame();
    ASSERT_FALSE(r.rolled_back) << "frame " << r.frame;
    inverted = std::max(inverted, r.inverted);
    crossing += r.intersections;
    pairs = std::max(pairs, r.barrier_pairs);
    double top = -INFINITY;
    for (int v : axis) top = std::max(top, vertex(sim.positions(), v).y());
    lowest_top = std::min(lowest_top, top);
  }
  EXPECT_EQ(inverted, 0);
  EXPECT_EQ(crossing, 0);
  EXPECT_GT(pairs, 20);
  EXPECT_LT(lowest_top, 0.31);  // squeezed from 0.6 m to the sphere's lowest point, 0.3 m
}

// The frame's start takes a vertex within d^/2 of a collider out along its normal (feasibleStart); under
// self-contact that move must not carry it through a surface above it. Vertex 0, 1 mm over a sphere of
// 1 m, would go out to d^/2 = 5 mm, through a triangle of another body lying 3 mm over the sphere's top:
// its move is cut short below the triangle (it went through before), and without self-contact it
// still goes all the way.
TEST(Barrier, TheStartTakesNoVertexOutThroughASurface) {
  const double dhat = 0.01;
  CollisionPrimitives p;
  p.vertices = {0, 1, 2, 3, 4, 5};
  p.triangles.resize(2, 3);
  p.triangles << 0, 1, 2, 3, 4, 5;
  p.two_sided = {1, 1};
  p.radius = {};
  p.body = {0, 0, 0, 1, 1, 1};
  VecX x(18);
  x << 0, 1.001, 0, 0.5, 0.9, 0, 0, 0.9, 0.5,  // triangle A: vertex 0 just over the sphere's top
      -1, 1.003, -1, 1, 1.003, -1, 0, 1.003, 1;  // triangle B, level, over vertex 0
  p.rest = x;
  Collider sphere;
  sphere.shape = Collider::Shape::Sphere, sphere.radius = 1.0;
  const std::vector<Collider> colliders = {sphere};
  VecX x_n = x;
  x_n[1] = 1.02;  // vertex 0 farther than d^ from the sphere at the frame's start: clearance d^/2
  for (const bool self_contact : {false, true}) {
    SelfBarrier self(p);
    ContactBarrier b(dhat, 1.0, 1.0 / 30, 0.0);
    b.beginFrame(colliders, self_contact ? &self : nullptr);
    if (self_contact) self.beginFrame(x, dhat);
    VecX start = x;
    EXPECT_EQ(b.feasibleStart(start, x_n, 1.0 / 30), 1);
    if (self_contact) {
      EXPECT_GT(start[1], 1.001) << "moved out some way";
      EXPECT_LT(start[1], 1.003) << "but not through triangle B";
    } else {
      EXPECT_NEAR(start[1], 1.0 + 0.5 * dhat, 1e-12);
    }
    for (int i = 3; i < 18; ++i) EXPECT_EQ(start[i], x[i]);  // the others do not move
  }
}

// Nor must that move turn a tet over, which the bound on the start does not see. The box squeezed flat on
// the ground, its bottom at 0.3 and its top at 0.6 of d^/100, the closest a start leaves a vertex to a
// collider: each vertex would go out to d^/100 and every tet would turn flat, even with x_n itself as the
// start (so it was, and the bunny through the torus once began a frame with a tet inside out). The start
// is x_n then, which touched nothing where the last frame ended.
TEST(Barrier, TheStartTurnsNoTetOver) {
  Scene scene = parseScene(test::boxSceneJson(R"({"model": "corotated", "mu": 3e4, "lambda": 1e5})",
                                              R"(, "colliders": [{"type": "plane", "name": "ground"}])"),
                           "inline.json");
  scene.bodies[0].handles.clear();
  scene.settings.threads = 1;
  for (const char* edit : {"contact.model=barrier", "solver.inversion_guard=true"}) applyOverride(scene, edit);
  Simulation sim(scene);
  SimState state = sim.state();
  const TetElements& tets = sim.model().tets;
  const auto rest = asRows(sim.model().rest);
  const double close = 1e-2 * scene.settings.contact_dhat * (rest.colwise().maxCoeff() - rest.colwise().minCoeff()).norm();
  const double bottom = rest.col(1).minCoeff(), height = rest.col(1).maxCoeff() - bottom;
  for (int v = 0; v < static_cast<int>(rest.rows()); ++v) state.x[3 * v + 1] = close * (0.3 + 0.3 * (rest(v, 1) - bottom) / height);
  state.v.setZero();
  sim.apply(LoadState{state});
  for (int e = 0; e < tets.size(); ++e) ASSERT_GT(tets.deformationGradient(state.x, e).determinant(), 0);

  Simulation::Impl& impl = internals(sim);
  impl.prepareFrame(scene.settings.time_step);
  VecX start = impl.prediction.y;
  impl.prepareStart(start, true);
  EXPECT_FALSE(turnsTetOver(tets, state.x, start));
  EXPECT_EQ(start, state.x);
  sim.apply(LoadState{state});
  for (int frame = 0; frame < 3; ++frame) {
    sim.step();
    EXPECT_EQ(sim.lastFrame().inverted, 0) << "frame " << frame;
  }
}

}  // namespace
}  // namespace qnsim
