// One state (qnsim/state.h): a run saved, continued, and loaded into a fresh simulation of the same scene
// continues bit for bit as the original did: for every integrator, every damping model, with tearing
// (A kept or refactored), after a cut, with pins and a drag, and with what PBD and Chebyshev carry from
// frame to frame; through the state file too.
#include <gtest/gtest.h>

#include "qnsim/error.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

Scene withEdits(Scene scene, const std::vector<std::string>& assignments) {
  for (const std::string& a : assignments) applyOverride(scene, a);
  scene.settings.threads = 1;
  return scene;
}

// Runs `before` frames (with `edit` after the first), saves the state (also through a file), runs
// `after` more; a fresh simulation of the same scene that loads the state runs the same frames to the
// same bits, positions and velocities, and the state a second load gives back is the same.
void expectResumesExactly(const Scene& scene, int before, int after, const std::function<void(Simulation&)>& edit = {},
                          const std::string& what = "") {
  Simulation original(scene);
  for (int f = 0; f < before; ++f) {
    original.step();
    if (f == 0 && edit) edit(original);
  }
  const SimState saved = original.state();
  const auto path = test::scratchDir("sim_state") / "state.json";
  writeState(path, saved);
  ASSERT_TRUE(readState(path) == saved) << what << ": the file holds the state bit for bit";
  std::vector<VecX> x, v;
  for (int f = 0; f < after; ++f) {
    original.step();
    x.push_back(original.positions());
    v.push_back(original.velocities());
  }
  Simulation resumed(scene);
  resumed.apply(LoadState{readState(path)});
  EXPECT_TRUE(resumed.state() == saved) << what << ": loading gives back the state";
  for (int f = 0; f < after; ++f) {
    resumed.step();
    ASSERT_TRUE(resumed.positions() == x[f]) << what << ", frame " << before + f + 1 << ": |difference| " << (resumed.positions() - x[f]).norm();
    ASSERT_TRUE(resumed.velocities() == v[f]) << what << ", frame " << before + f + 1;
  }
  EXPECT_EQ(resumed.frame(), original.frame());
  EXPECT_EQ(resumed.time(), original.time());
}

// The issue's report: BDF2 reads the step before, which a saved state did not hold (4.5 mm apart).
TEST(SimState, Bdf2TwistingBarResumesItsOwnTrajectory) {
  expectResumesExactly(withEdits(loadScene(catalogScenePath("twisting_bar")), {"integrator=bdf2"}), 12, 8);
}

TEST(SimState, EveryIntegratorAndDampingModelResumesExactly) {
  const Scene box = parseScene(test::boxSceneJson(R"({"model": "neo_hookean", "mu": 3e4, "lambda": 1e5})"), "inline.json");
  for (const char* integrator : {"backward_euler", "implicit_midpoint", "bdf2"})
    for (const std::vector<std::string>& damping : std::vector<std::vector<std::string>>{
             {}, {"damping=0.05", "damping_model=ether"}, {"damping=0.05", "damping_model=rigid_modes"}, {"material_damping=0.02"}}) {
      std::vector<std::string> edits = damping;
      edits.push_back(std::string("integrator=") + integrator);
      std::string what = integrator;
      for (const std::string& d : damping) what += " " + d;
      expectResumesExactly(withEdits(box, edits), 5, 6, {}, what);
    }
}

// A bar pulled apart until its middle tears (the regression scene bar_tearing): with A kept, the state
// says which elements A still holds; with A refactored, a load refactors as the original did.
TEST(SimState, TearingResumesExactlyWhetherAIsKeptOrRefactored) {
  const Scene bar = loadScene(catalogScenePath("bar_tearing"));
  for (const char* matrix : {"keep", "refactor"}) {
    Simulation probe(withEdits(bar, {std::string("tearing.matrix=") + matrix}));
    int torn_at = 0;
    while (probe.lastFrame().removed == 0 && torn_at < 200) probe.step(), ++torn_at;
    ASSERT_GT(probe.lastFrame().removed, 0) << matrix;
    expectResumesExactly(withEdits(bar, {std::string("tearing.matrix=") + matrix}), torn_at + 3, 15, {}, matrix);
    expectResumesExactly(withEdits(bar, {std::string("tearing.matrix=") + matrix}), torn_at, 15, {}, std::string(matrix) + ", saved as it tore");
  }
}

TEST(SimState, ACutPinsAndADragResumeExactly) {
  const Scene cloth = withEdits(parseScene(test::clothSceneJson(), "inline.json"), {});
  for (const char* matrix : {"keep", "refactor"}) {
    const auto cut = [](Simulation& sim) {
      const Vec3 apex(0.05, 1, 0);
      ASSERT_GT(sim.apply(Cut{apex, Vec3(0.05, 0, -2) - apex, Vec3(0.05, 0, 2) - apex}).removed, 0);
    };
    expectResumesExactly(withEdits(cloth, {std::string("tearing.matrix=") + matrix}), 4, 8, cut, std::string("cut, ") + matrix);
  }
  const Scene box = parseScene(test::boxSceneJson(R"({"model": "corotated", "mu": 3e4, "lambda": 1e5})"), "inline.json");
  expectResumesExactly(withEdits(box, {}), 4, 6, [](Simulation& sim) {
    sim.apply(PinVertices{{2, 8, 20}, 1e5});
    sim.apply(UnpinVertices{{26, 20}});  // a scene handle's vertex and a pin
    sim.apply(SetDrag{{{13, Vec3(0.2, 0.4, 0.1), 2e3}}});
  }, "pins and a drag");
}

TEST(SimState, WhatMethodsCarryBetweenFramesResumesExactly) {
  const Scene box = parseScene(test::boxSceneJson(R"({"model": "corotated", "mu": 3e4, "lambda": 1e5})"), "inline.json");
  for (const char* method : {"pbd", "xpbd", "chebyshev", "pd", "newton", "gd", "newton_abs", "vbd", "anderson", "jacobi", "admm"})
    expectResumesExactly(withEdits(box, {std::string("solver.method=") + method}), 4, 5, {}, method);
}

// The barrier's friction takes its normal forces from the barrier's stiffness at the end of the frame
// before (barrier.h), which the state carries: a box thrown sideways onto the ground, saved as it slides.
TEST(SimState, TheBarriersFrictionResumesExactly) {
  Scene box = test::thrownBox(R"({"model": "corotated", "mu": 2e4, "lambda": 5e4})", 3.0, {"contact.model=barrier", "contact_friction=0.4"});
  box.bodies[0].velocity.x() = 2.0;
  Simulation probe(withEdits(box, {}));
  for (int f = 0; f < 12; ++f) probe.step();
  ASSERT_GT(probe.state().barrier_stiffness, 0);
  expectResumesExactly(withEdits(box, {}), 12, 6, {}, "barrier friction");
}

// Self-contact's friction reads its normal forces from the last frame's motion (v_n, v_n-1 and x_n,
// all in the state): a box sliding on a pinned slab under self-contact, saved as it slides.
TEST(SimState, SelfContactsFrictionResumesExactly) {
  const Scene slide = parseScene(R"({"version": 1, "gravity": [0, -9.81, 0], "contact.model": "barrier",
    "self_collision.enabled": true, "contact_friction": 0.5,
    "bodies": [
      {"name": "box", "shape": {"type": "box", "size": [0.2, 0.2, 0.2], "cells": [2, 2, 2]}, "translate": [-0.5, 0.2012, 0],
       "velocity": [2, 0, 0], "density": 500, "materials": [{"model": "corotated", "mu": 1e5, "lambda": 4e5}]},
      {"name": "slab", "shape": {"type": "box", "size": [2, 0.1, 0.6], "cells": [10, 1, 3]}, "translate": [0, 0.0501, 0],
       "density": 500, "materials": [{"model": "corotated", "mu": 1e6, "lambda": 4e6}],
       "handles": [{"name": "all", "select": {"box": {"min": [-3, -1, -2], "max": [3, 1, 2]}}}]}]})",
                                 "slide.json");
  expectResumesExactly(withEdits(slide, {}), 6, 6, {}, "self-contact friction");
  const auto boxTravel = [&](const std::string& friction) {  // the friction is at work: it slows the box
    Simulation sim(withEdits(slide, {"contact_friction=" + friction}));
    const double start = asRows(sim.positions()).topRows(27).col(0).mean();
    for (int f = 0; f < 12; ++f) sim.step();
    return asRows(sim.positions()).topRows(27).col(0).mean() - start;
  };
  EXPECT_LT(boxTravel("0.5"), 0.8 * boxTravel("0"));
}

// Edits made before the save (a material, a setting) are the scene's, not the state's: a fresh
// simulation gets them from the scene it is made of (here the original's, edits applied).
TEST(SimState, EditsLiveInTheSceneAndTheStateInTheState) {
  Simulation original(withEdits(parseScene(test::boxSceneJson(R"({"model": "neo_hookean"})"), "inline.json"), {}));
  original.step();
  original.apply(SetParameter{"material." + original.model().regions[0].name + ".mu", 5e4});
  original.apply(SetParameter{"solver.iterations", 14});
  original.step();
  Simulation resumed(original.scene());
  resumed.apply(LoadState{original.state()});
  for (int f = 0; f < 4; ++f) original.step(), resumed.step();
  EXPECT_TRUE(resumed.positions() == original.positions());
  EXPECT_EQ(resumed.settings().solver.iterations, 14);
}

// A state whose parts do not fit the model is refused, naming what is wrong, and nothing changes.
TEST(SimState, AStateThatDoesNotFitIsRefusedWithWhatIsWrong) {
  Simulation sim(parseScene(test::boxSceneJson(R"({"model": "neo_hookean"})"), "inline.json"));
  sim.step();
  const SimState good = sim.state();
  const auto refused = [&](const std::function<void(SimState&)>& spoil, const std::string& expected) {
    SimState bad = good;
    spoil(bad);
    try {
      sim.apply(LoadState{bad});
      ADD_FAILURE() << "accepted: " << expected;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
    EXPECT_TRUE(sim.state() == good) << expected << ": a refused state changes nothing";
  };
  refused([](SimState& s) { s.x[4] = std::numeric_limits<double>::quiet_NaN(); }, "positions and velocities must be finite");
  refused([](SimState& s) { s.x_previous.resize(3); }, "previous step");
  refused([](SimState& s) { s.removed.tets = {1000}; }, "removed tet 1000 does not exist");
  refused([](SimState& s) { s.pins = {{3, Vec3::Zero(), -1.0}}; }, "stiffness must be positive");
  refused([](SimState& s) { s.drags = {{99, Vec3::Zero(), 1.0}}; }, "drag: vertex 99 does not exist");
  refused([](SimState& s) { s.rotations.resize(3); }, "3 rotations for 40 tets");
  refused([](SimState& s) { s.spectral_radius = 1.5; }, "spectral radius");
  refused([](SimState& s) { s.barrier_stiffness = -std::numeric_limits<double>::infinity(); }, "barrier stiffness");
  refused([](SimState& s) { s.collider_poses = {{Vec3::Zero(), Mat3::Identity()}}; }, "1 collider poses for the scene's 0 colliders");
}

// A reset goes back to the start: positions, velocities, time, removed elements and the drag as at the
// beginning; the pins, an edit of the scene, stay (as in a scene saved with them).
TEST(SimState, ResetGoesBackToTheStartKeepingThePins) {
  Simulation sim(parseScene(test::boxSceneJson(R"({"model": "neo_hookean"})"), "inline.json")),
      fresh(parseScene(test::boxSceneJson(R"({"model": "neo_hookean"})"), "inline.json"));
  SimState expected = sim.state();
  sim.apply(PinVertices{{4}, 1e4});
  expected.pins = sim.state().pins;
  sim.apply(SetDrag{{{5, Vec3(0, 1, 0), 1e3}}});
  for (int f = 0; f < 3; ++f) sim.step();
  EXPECT_EQ(sim.apply(Reset{}).effect, Effect::Live) << "the pin stays in A";
  EXPECT_TRUE(sim.state() == expected);
  fresh.apply(PinVertices{{4}, 1e4, {vertex(expected.x, 4)}});
  for (int f = 0; f < 3; ++f) sim.step(), fresh.step();
  EXPECT_TRUE(sim.positions() == fresh.positions());
}

}  // namespace
}  // namespace qnsim
