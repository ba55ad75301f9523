// Undo and redo (qnsim/history.h): after every kind of edit, undo gives the next frame the simulation would
// have run without the edit, bit for bit, and redo the one it runs with it.
#include <gtest/gtest.h>

#include "qnsim/error.h"
#include "qnsim/history.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

// Four simulations of `scene` run `before` frames. Made through the history and undone, the edit leaves
// the next frames as those of a simulation that never had it; undone and redone, as those of one that
// had it directly.
void expectUndoAndRedoExact(const Scene& scene, const Edit& edit, const std::string& what, int before = 2) {
  SCOPED_TRACE(what);
  Simulation undone(scene), untouched(scene), redone(scene), direct(scene);
  for (int f = 0; f < before; ++f) undone.step(), untouched.step(), redone.step(), direct.step();
  EditHistory history, history_redone;
  const EditResult applied = history.apply(undone, edit);
  ASSERT_TRUE(history.canUndo()) << "the edit was recorded";
  EXPECT_EQ(history.undo(undone).effect, applied.effect) << "undone, A is refactored as the edit refactored it";
  EXPECT_TRUE(undone.state() == untouched.state());
  history_redone.apply(redone, edit);
  history_redone.undo(redone);
  history_redone.redo(redone);
  direct.apply(edit);
  EXPECT_TRUE(redone.state() == direct.state());
  for (int f = 0; f < 3; ++f) {
    undone.step(), untouched.step(), redone.step(), direct.step();
    ASSERT_TRUE(undone.positions() == untouched.positions()) << "undone, frame " << f + 1;
    ASSERT_TRUE(redone.positions() == direct.positions()) << "redone, frame " << f + 1;
  }
}

Scene boxScene(const std::vector<std::string>& overrides = {}) {
  std::vector<std::string> all = overrides;
  all.push_back("threads=1");
  return parseScene(test::boxSceneJson(R"({"model": "neo_hookean", "mu": 3e4, "lambda": 1e5})"), "inline.json", all);
}

TEST(EditHistory, SettingsUndoExactlyWhateverTheirEffect) {
  expectUndoAndRedoExact(boxScene(), SetParameter{"solver.iterations", 4}, "live");
  expectUndoAndRedoExact(boxScene(), SetParameter{"solver.method", std::string("pd")}, "new direction solver");
  expectUndoAndRedoExact(boxScene(), SetParameter{"time_step", 0.02}, "new system matrix");
}

TEST(EditHistory, MaterialConstantsAndModelSwitchesUndoExactly) {
  expectUndoAndRedoExact(boxScene(), SetParameter{"material.box.mu", 5e4}, "a constant in A");
  expectUndoAndRedoExact(boxScene(), SetParameter{"material.box.tear_strain", 0.5}, "a live constant");
  auto corotated = makeMaterial("corotated");
  corotated->set("mu", 2e4);
  expectUndoAndRedoExact(boxScene(), SetMaterial{"box", std::move(corotated)}, "a model switch");
}

TEST(EditHistory, PinsAndUnpinsUndoExactly) {
  expectUndoAndRedoExact(boxScene(), PinVertices{{5, 13, 2}, 2e4}, "pin");
  expectUndoAndRedoExact(boxScene(), UnpinVertices{{26}}, "unpin a handle's vertex");
  Scene pinned = boxScene();
  Simulation sim(pinned);
  sim.apply(PinVertices{{3, 9}, 1e4});
  expectUndoAndRedoExact(sim.savedScene(), UnpinVertices{{3}}, "unpin a saved pin");
}

TEST(EditHistory, CutsUndoExactlyWhetherAIsKeptOrRefactored) {
  const Vec3 apex(0.05, 1, 0);
  const Cut cut{apex, Vec3(0.05, 0, -2) - apex, Vec3(0.05, 0, 2) - apex};
  for (const char* matrix : {"keep", "refactor"})
    expectUndoAndRedoExact(parseScene(test::clothSceneJson(), "inline.json", {"threads=1", std::string("tearing.matrix=") + matrix}), cut,
                           std::string("cut, ") + matrix);
}

TEST(EditHistory, ColliderMovesUndoExactly) {
  const Scene scene = parseScene(test::boxSceneJson(R"({"model": "neo_hookean", "mu": 3e4, "lambda": 1e5})",
                                                    R"(, "colliders": [{"type": "sphere", "center": [0.2, -0.6, 0], "radius": 0.25}])"),
                                 "inline.json", {"threads=1"});
  Collider ball = scene.colliders[0];
  ball.position.y() += 0.05;
  expectUndoAndRedoExact(scene, SetCollider{0, ball}, "collider", 3);
}

// A cut undone after other frames and cuts brings back only its own elements.
TEST(EditHistory, AnUndoneCutBringsBackOnlyItsElements) {
  Simulation sim(parseScene(test::clothSceneJson(), "inline.json", {"threads=1"}));
  EditHistory history;
  const auto cutAt = [](double x) {
    const Vec3 apex(x, 1, 0);
    return Cut{apex, Vec3(x, 0, -2) - apex, Vec3(x, 0, 2) - apex};
  };
  sim.step();
  const int first = history.apply(sim, cutAt(-0.25)).removed;
  const ElementSet after_first = sim.state().removed;
  sim.step();
  const int second = sim.apply(cutAt(0.25)).removed;  // not recorded
  ASSERT_GT(first, 0);
  ASSERT_GT(second, 0);
  history.undo(sim);
  const std::vector<int> removed = sim.state().removed.springs;
  EXPECT_EQ(static_cast<int>(removed.size()), second) << "the second cut's elements stay removed";
  for (int s : after_first.springs) EXPECT_FALSE(std::count(removed.begin(), removed.end(), s)) << "spring " << s << " did not come back";
}

TEST(EditHistory, ListsEditsAndKnowsWhatIsUnsaved) {
  Simulation sim(boxScene());
  EditHistory history(3);
  EXPECT_FALSE(history.modified());
  history.apply(sim, SetParameter{"solver.iterations", 4});
  history.apply(sim, SetParameter{"solver.iterations", 4});  // changes nothing: not recorded
  history.apply(sim, PinVertices{{5}, 1e4});
  history.apply(sim, SetDrag{{{5, Vec3(0, 1, 0), 1e3}}});  // not an edit of the scene
  EXPECT_EQ(history.descriptions(), (std::vector<std::string>{"solver.iterations = 4", "pin 1 vertices"}));
  EXPECT_TRUE(history.modified());
  history.markSaved();
  EXPECT_FALSE(history.modified());
  history.undo(sim);
  EXPECT_TRUE(history.modified());
  history.redo(sim);
  EXPECT_FALSE(history.modified()) << "back where it was saved";
  history.undo(sim);
  history.apply(sim, SetParameter{"solver.lbfgs_window", 3});  // forgets the undone pin, and the saved point with it
  EXPECT_TRUE(history.modified());
  EXPECT_FALSE(history.canRedo());
  history.apply(sim, SetParameter{"solver.lbfgs_window", 4});
  history.apply(sim, SetParameter{"solver.lbfgs_window", 5});
  EXPECT_EQ(history.descriptions().size(), 3u) << "the oldest forgotten beyond the limit";
  EXPECT_EQ(history.descriptions().front(), "solver.lbfgs_window = 3");
}

// A slider dragged through many values is one step to undo, back to the value before the drag.
TEST(EditHistory, AGesturesEditsAreOneStep) {
  Simulation sim(boxScene());
  EditHistory history;
  history.apply(sim, SetParameter{"solver.iterations", 4});
  for (double mu : {3.5e4, 4e4, 4.5e4}) history.apply(sim, SetParameter{"material.box.mu", mu}, true);
  history.apply(sim, SetParameter{"solver.iterations", 6}, true);  // another target: a step of its own
  ASSERT_EQ(history.descriptions(), (std::vector<std::string>{"solver.iterations = 4", "material.box.mu = 45000", "solver.iterations = 6"}));
  history.undo(sim);
  history.undo(sim);
  EXPECT_EQ(std::get<double>(sim.value("material.box.mu")), 3e4);
  EXPECT_EQ(std::get<int>(sim.value("solver.iterations")), 4);
  history.apply(sim, SetParameter{"solver.lbfgs_window", 2});
  history.apply(sim, SetParameter{"solver.lbfgs_window", 5}, true);  // back where the gesture began
  EXPECT_EQ(history.descriptions().size(), 1u) << "a gesture that changed nothing leaves no step";
}

TEST(EditHistory, ARejectedEditIsNotRecorded) {
  Simulation sim(boxScene());
  EditHistory history;
  EXPECT_THROW(history.apply(sim, PinVertices{{999}, 1e4}), Error);
  EXPECT_THROW(history.apply(sim, SetParameter{"solver.iterations", -3}), Error);
  EXPECT_FALSE(history.canUndo());
}

}  // namespace
}  // namespace qnsim
