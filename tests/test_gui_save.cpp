// The sandbox's save, undo and close paths through its logic layer (app/gui/logic): edits sent to the
// runner are listed, undone and redone; Save scene writes a file that opens as the edited scene and
// clears the unsaved mark; the question before unsaved edits are lost runs, saves or drops the action.
#include <gtest/gtest.h>

#include "app/gui/logic/session.h"
#include "app/gui/logic/unsaved_guard.h"
#include "tests/test_util.h"

namespace qnsim::gui {
namespace {

bool hasMessage(const SimRunner& runner, const std::string& part) {
  for (const std::string& m : runner.messages(0))
    if (m.find(part) != std::string::npos) return true;
  return false;
}

TEST(GuiSave, EditsAreListedUndoneRedoneAndSaved) {
  const auto session = loadSession("scenes/bunny_torus.json", {"threads=1"}, false);
  SimRunner& runner = *session->runner;
  runner.pump();
  EXPECT_FALSE(runner.snapshot()->unsaved);
  runner.apply(SetParameter{"solver.lbfgs_window", 3});
  runner.apply(PinVertices{{10, 20}, 1e3});
  Collider ring = runner.snapshot()->colliders[0];
  ring.position.y() += 0.01;
  runner.apply(SetCollider{0, ring});
  runner.pump();
  auto s = runner.snapshot();
  EXPECT_TRUE(s->unsaved);
  EXPECT_EQ(s->undo_list, (std::vector<std::string>{"solver.lbfgs_window = 3", "pin 2 vertices", "move collider ring"}));
  EXPECT_EQ(s->undo_done, 3);
  runner.undo();
  runner.pump();
  s = runner.snapshot();
  EXPECT_EQ(s->undo_done, 2);
  EXPECT_EQ(s->colliders[0].position.y(), session->colliders[0].position.y()) << "the move undone";
  EXPECT_TRUE(hasMessage(runner, "undid move collider ring"));

  const auto dir = test::scratchDir("gui_save");
  ASSERT_TRUE(runner.saveScene(dir / "edited.json"));
  EXPECT_FALSE(runner.snapshot()->unsaved);
  EXPECT_TRUE(hasMessage(runner, "saved the scene as"));
  const Scene saved = loadScene(dir / "edited.json");
  EXPECT_EQ(saved.settings.solver.lbfgs_window, 3);
  EXPECT_EQ(saved.bodies[0].handles.back().select.indices, (std::vector<int>{10, 20}));
  EXPECT_TRUE(saved.colliders[0] == session->colliders[0]);

  runner.redo();
  runner.pump();
  EXPECT_TRUE(runner.snapshot()->unsaved) << "a redo after the save is unsaved";
  runner.undo();
  runner.pump();
  EXPECT_FALSE(runner.snapshot()->unsaved) << "back where it was saved";
}

TEST(GuiSave, AFailedSaveSaysWhereAndKeepsTheEditsUnsaved) {
  const auto session = loadSession("scenes/twisting_bar.json", {"threads=1"}, false);
  SimRunner& runner = *session->runner;
  runner.apply(SetParameter{"solver.iterations", 12});
  runner.pump();
  const auto where = test::scratchDir("gui_save_fail") / "missing" / "bar.json";
  EXPECT_FALSE(runner.saveScene(where));
  EXPECT_TRUE(hasMessage(runner, where.string()));
  EXPECT_TRUE(runner.snapshot()->unsaved);
}

TEST(GuiSave, DefaultSavePathNeverOverwritesTheSceneOpened) {
  EXPECT_EQ(defaultSavePath("scenes/cloth.json"), "cloth_edited.json");
  EXPECT_EQ(defaultSavePath("/data/models/hippo.mesh"), "hippo_edited.json");
}

TEST(GuiSave, TheQuestionBeforeUnsavedEditsAreLost) {
  using Answer = UnsavedGuard::Answer;
  UnsavedGuard guard;
  int opened = 0, saves = 0;
  const auto open = [&] { ++opened; };
  guard.request(false, "open cloth", open);
  EXPECT_EQ(opened, 1) << "nothing unsaved: at once";
  EXPECT_FALSE(guard.asking());

  guard.request(true, "open cloth", open);
  EXPECT_TRUE(guard.asking());
  EXPECT_EQ(guard.what(), "open cloth");
  guard.answer(Answer::Cancel, [&] { return ++saves, true; });
  EXPECT_EQ(opened, 1);
  EXPECT_EQ(saves, 0);
  EXPECT_FALSE(guard.asking());

  guard.request(true, "close the window", open);
  guard.answer(Answer::Save, [&] { return ++saves, false; });  // the save failed: still asking
  EXPECT_TRUE(guard.asking());
  EXPECT_EQ(opened, 1);
  guard.answer(Answer::Save, [&] { return ++saves, true; });
  EXPECT_EQ(opened, 2);
  EXPECT_EQ(saves, 2);

  guard.request(true, "open hippo", open);
  guard.answer(Answer::Discard, [&] { return ++saves, true; });
  EXPECT_EQ(opened, 3);
  EXPECT_EQ(saves, 2) << "discarded: not saved";
}

}  // namespace
}  // namespace qnsim::gui
