// Live edits of a running Simulation through Simulation::apply (qnsim/edit.h): material swaps and
// constants with the refactorisation on a worker thread, pins, and state loads.
#include <gtest/gtest.h>

#include <fstream>

#include "core/material/models.h"
#include "qnsim/error.h"
#include "qnsim/simulation.h"
#include "tests/mesh_fixtures.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

const std::string kNeo = R"({"model": "neo_hookean", "mu": 1e5, "lambda": 4e5})";
const std::string kStiffNeo = R"({"model": "neo_hookean", "mu": 2e5, "lambda": 4e5})";

Scene boxScene(const std::string& material) {
  Scene scene = parseScene(test::boxSceneJson(material), "inline.json");
  scene.settings.threads = 1;
  return scene;
}

std::shared_ptr<const Material> neoHookean(double mu) {
  auto m = std::make_shared<NeoHookean>();
  m->set("mu", mu);
  m->set("lambda", 4e5);
  return m;
}

// The box's one material entry (boxSceneJson names none: the reader names it after the body).
std::string materialName(const Simulation& sim) { return sim.model().regions[0].name; }

TEST(SimEdits, MaterialEditMatchesAFreshSimulationOnceTheFactorIsIn) {
  Simulation edited(boxScene(kNeo)), fresh(boxScene(kStiffNeo));
  EXPECT_EQ(edited.apply(SetMaterial{materialName(edited), neoHookean(2e5)}).effect, Effect::NewSystemMatrix);
  EXPECT_TRUE(edited.refactorPending());
  edited.finishRefactor();
  EXPECT_FALSE(edited.refactorPending());
  EXPECT_DOUBLE_EQ(edited.model().regions[0].stiffness, fresh.model().regions[0].stiffness);
  for (int f = 0; f < 5; ++f) {
    edited.step();
    fresh.step();
  }
  EXPECT_LT((edited.positions() - fresh.positions()).norm(), 1e-10);
  EXPECT_EQ(edited.lastFrame().factorizations, fresh.lastFrame().factorizations + 1);
}

// The sandbox's simulation swaps a new A in when it is ready: frames run meanwhile with the old one.
TEST(SimEdits, FramesRunWhileTheRefactorisationIsPending) {
  Simulation sim(boxScene(kNeo), {.wait_for_refactor = false});
  for (int i = 0; i < 4; ++i) {
    sim.apply(SetMaterial{materialName(sim), neoHookean(1e5 * (i + 2))});
    sim.step();
    EXPECT_TRUE(sim.positions().allFinite());
    EXPECT_LE(sim.lastSolve().iterations.back().g, sim.lastSolve().iterations.front().g);
  }
  sim.finishRefactor();
  sim.step();
  EXPECT_DOUBLE_EQ(sim.model().regions[0].material->get("mu"), 5e5);
}

TEST(SimEdits, MaterialEditRejectsWrongKindAndRegion) {
  Simulation sim(boxScene(kNeo));
  EXPECT_EQ(test::errorOf([&] { sim.apply(SetMaterial{"rubber", neoHookean(1e5)}); }), "material edit: the scene has no material named 'rubber'");
  EXPECT_NE(test::errorOf([&] { sim.apply(SetMaterial{materialName(sim), std::make_shared<Spring>()}); }).find("needs a solid material"),
            std::string::npos);
  EXPECT_FALSE(sim.refactorPending());
}

// A material constant is a SetParameter "material.NAME.PARAMETER", as --set writes it: checked against
// the material's declaration, and doing what that declares (mu: a new k and A; tear_strain: live).
TEST(SimEdits, MaterialConstantsObeyTheirDeclaredEffect) {
  Simulation sim(boxScene(kNeo)), fresh(boxScene(kStiffNeo));
  const std::string mu = "material." + materialName(sim) + ".mu";
  EXPECT_EQ(sim.apply(SetParameter{mu, std::string("2e5")}).effect, Effect::NewSystemMatrix);
  EXPECT_EQ(std::get<double>(sim.value(mu)), 2e5);
  EXPECT_EQ(sim.scene().bodies[0].materials[0].material, sim.model().regions[0].material) << "one material, shared";
  EXPECT_EQ(sim.apply(SetParameter{"material." + materialName(sim) + ".tear_strain", 0.5}).effect, Effect::Live);
  EXPECT_NE(test::errorOf([&] { sim.apply(SetParameter{mu, -1.0}); }).find(mu), std::string::npos);
  EXPECT_NE(test::errorOf([&] { sim.apply(SetParameter{mu, std::string("soft")}); }).find(mu), std::string::npos);
  EXPECT_EQ(std::get<double>(sim.value(mu)), 2e5) << "a refused edit changes nothing";
  sim.apply(SetParameter{"material." + materialName(sim) + ".tear_strain", 0.0});
  for (int f = 0; f < 5; ++f) sim.step(), fresh.step();
  EXPECT_EQ(sim.positions(), fresh.positions()) << "the same bits as a simulation made with mu = 2e5";
}

TEST(SimEdits, PinHoldsVerticesAndUnpinReleasesSceneHandlesToo) {
  Simulation sim(boxScene(kNeo));
  const size_t scene_attachments = sim.model().attachments.size();  // vertices 0 and 26
  sim.apply(PinVertices{{0, 2, 8}, 1e7});                             // 0 is already attached
  EXPECT_EQ(sim.model().attachments.size(), scene_attachments + 2);
  const Vec3 held = vertex(sim.positions(), 8);
  for (int f = 0; f < 10; ++f) sim.step();
  EXPECT_LT((vertex(sim.positions(), 8) - held).norm(), 1e-3);

  sim.apply(UnpinVertices{{0, 8}});
  EXPECT_EQ(sim.model().attachments.size(), scene_attachments);  // 26 and 2 stay
  for (const HandleState& h : internals(sim).built.handles)
    for (int a : h.attachments) EXPECT_LT(a, static_cast<int>(sim.model().attachments.size()));
  EXPECT_EQ(sim.state().released, std::vector<int>{0});
  ASSERT_EQ(sim.state().pins.size(), 1u);
  EXPECT_EQ(sim.state().pins[0].vertex, 2);
  const double y0 = vertex(sim.positions(), 0).y();
  for (int f = 0; f < 10; ++f) sim.step();
  EXPECT_LT(vertex(sim.positions(), 0).y(), y0 - 1e-3);  // vertex 0 falls once released
  EXPECT_EQ(test::errorOf([&] { sim.apply(PinVertices{{1000}, 1e5}); }), "pin: vertex 1000 does not exist (the model has 27)");
  EXPECT_EQ(test::errorOf([&] { sim.apply(PinVertices{{3}, 0.0}); }), "pin: the stiffness must be positive and finite, got 0");
}

TEST(SimEdits, SavedStateRestoresTheSameMotion) {
  Simulation sim(boxScene(kNeo));
  for (int f = 0; f < 3; ++f) sim.step();
  const auto path = test::scratchDir("sim_edits") / "state.json";
  writeState(path, sim.state());
  const SimState saved = readState(path);
  EXPECT_TRUE(saved == sim.state()) << "the whole state, bit-identical";
  EXPECT_EQ(saved.x, sim.state().x) << "bit-identical";
  EXPECT_EQ(saved.v, sim.state().v) << "bit-identical";
  EXPECT_EQ(saved.time, sim.state().time);
  for (int f = 0; f < 3; ++f) sim.step();
  const VecX expected = sim.positions();

  sim.apply(LoadState{readState(path)});
  EXPECT_EQ(sim.frame(), 3);
  for (int f = 0; f < 3; ++f) sim.step();
  EXPECT_EQ(sim.positions(), expected);
}

TEST(SimEdits, StateFilesWithProblemsAreRejectedWithTheirName) {
  Simulation sim(boxScene(kNeo));
  const auto dir = test::scratchDir("sim_edits_bad");
  try {
    readState(dir / "missing.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.json"), std::string::npos);
  }
  SimState wrong = sim.state();
  wrong.x.conservativeResize(wrong.x.size() - 3);
  wrong.v.conservativeResize(wrong.v.size() - 3);
  EXPECT_THROW(sim.apply(LoadState{wrong}), Error);
  std::ofstream(dir / "bad.json") << R"({"format": "qnsim-state", "frame": 1, "time": 0.1, "x": [0, "a", 0], "v": [0, 0, 0]})";
  EXPECT_THROW(readState(dir / "bad.json"), Error);
}

TEST(SimEdits, ReferenceSolvesAndComparisonsLeaveTheTrajectoryBitIdentical) {
  // They solve the next frame with the simulation's own objective and contact refresh: whatever they
  // leave behind must not reach the simulation's frames, or its results would depend on what was watched.
  const std::string corotated = R"({"model": "corotated", "mu": 1e5, "lambda": 4e5})";
  Simulation plain(boxScene(corotated)), watched(boxScene(corotated));
  watched.setReferenceEnabled(true);
  const std::vector<Method> methods = {{"ours", {}}, {"newton", {"solver.method=newton"}}};
  for (int frame = 0; frame < 6; ++frame) {
    if (frame % 2) watched.compareNextFrame(methods);
    plain.step();
    watched.step();
  }
  EXPECT_EQ(plain.positions(), watched.positions());
  EXPECT_EQ(plain.velocities(), watched.velocities());
}

// compareNextFrame keeps the methods it ran until A changes, so that Newton analyses its Hessian's
// pattern once, as in a run, rather than in every timed comparison. What they compute is what fresh
// ones compute, before and after a material edit (which brings a new A and new methods).
TEST(SimEdits, ComparisonsKeepTheirMethodsWithTheResultsOfFreshOnes) {
  Simulation sim(boxScene(kNeo));
  const std::vector<Method> methods = {{"ours", {}}, {"newton", {"solver.method=newton"}}};
  const auto expectFreshResults = [&](const char* when) {
    Simulation fresh(boxScene(kNeo));
    fresh.apply(SetMaterial{materialName(fresh), neoHookean(sim.model().regions[0].material->get("mu"))});
    fresh.finishRefactor();
    fresh.apply(LoadState{sim.state()});
    const auto kept = sim.compareNextFrame(methods), anew = fresh.compareNextFrame(methods);
    ASSERT_EQ(kept.size(), anew.size());
    for (size_t m = 0; m < kept.size(); ++m) {
      ASSERT_EQ(kept[m].result.iterations.size(), anew[m].result.iterations.size()) << when;
      for (size_t k = 0; k < kept[m].result.iterations.size(); ++k)
        EXPECT_EQ(kept[m].result.iterations[k].g, anew[m].result.iterations[k].g) << when << ", method " << m << ", iterate " << k;
      EXPECT_EQ(kept[m].rel_error, anew[m].rel_error) << when;
    }
  };
  for (int frame = 0; frame < 4; ++frame) {
    expectFreshResults("before the edit");
    sim.step();
  }
  sim.apply(SetMaterial{materialName(sim), neoHookean(2e5)});
  sim.finishRefactor();
  for (int frame = 0; frame < 3; ++frame) {
    expectFreshResults("after the edit");
    sim.step();
  }
}

// The reference solve keeps its Newton solver from frame to frame (its Hessian's pattern is analysed
// once): each frame's relative errors are those a fresh simulation computes from the same state.
TEST(SimEdits, TheKeptReferenceSolverGivesTheErrorsOfAFreshOne) {
  Simulation sim(boxScene(kNeo));
  sim.setReferenceEnabled(true);
  for (int frame = 0; frame < 4; ++frame) {
    Simulation fresh(boxScene(kNeo));
    fresh.setReferenceEnabled(true);
    fresh.apply(LoadState{sim.state()});
    sim.step();
    fresh.step();
    EXPECT_FALSE(sim.lastRelativeErrors().empty());
    EXPECT_EQ(sim.lastRelativeErrors(), fresh.lastRelativeErrors()) << "frame " << frame;
  }
}

}  // namespace
}  // namespace qnsim
