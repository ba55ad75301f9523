// The sandbox's simulation runner: commands are applied between frames, the drag moves the model
// without refactoring, pins, compare and its export, save/load, and the threaded mode publishes frames. Also the
// colour fields.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <thread>

#include "app/gui/logic/compare_methods.h"
#include "app/gui/logic/sim_runner.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim::gui {
namespace {

std::unique_ptr<Simulation> boxSimulation() {
  Scene scene = parseScene(test::boxSceneJson(R"({"model": "neo_hookean", "mu": 1e5, "lambda": 4e5})"), "inline.json");
  scene.settings.threads = 1;
  return std::make_unique<Simulation>(std::move(scene));
}

bool hasMessage(const SimRunner& runner, const std::string& part) {
  for (const std::string& m : runner.messages(0))
    if (m.find(part) != std::string::npos) return true;
  return false;
}

TEST(GuiRunner, StepsOnlyWhenPlayingOrAskedAndKeepsHistory) {
  SimRunner runner(boxSimulation(), false);
  runner.pump();
  EXPECT_EQ(runner.snapshot()->frame, 0);
  runner.stepOnce();
  runner.pump();
  EXPECT_EQ(runner.snapshot()->frame, 1);
  runner.setPlaying(true);
  for (int i = 0; i < 3; ++i) runner.pump();
  const auto s = runner.snapshot();
  EXPECT_EQ(s->frame, 4);
  EXPECT_TRUE(s->playing);
  ASSERT_EQ(s->history.size(), 4u);
  EXPECT_EQ(s->history.back().frame, 4);
  EXPECT_EQ(s->totals.frames, 4);
  EXPECT_EQ(s->iterations.size(), 11u);  // iterate 0 and 10 iterations
  EXPECT_EQ(s->attached, (std::vector<int>{0, 26}));
  runner.reset();
  runner.setPlaying(false);
  runner.pump();
  EXPECT_EQ(runner.snapshot()->frame, 0);
  EXPECT_TRUE(runner.snapshot()->history.empty());
}

// The Recording panel's export: every frame from the moment it is ticked, as qnsim run --export writes them;
// a .glb when it is unticked.
TEST(GuiRunner, ExportsEveryFrameInTheChosenFormat) {
  const std::filesystem::path dir = test::scratchDir("gui_export");
  SimRunner runner(boxSimulation(), false);
  runner.setExport(dir / "vtk", ExportFormat::Vtu);
  runner.pump();
  runner.stepOnce();
  runner.pump();
  runner.setExport(std::nullopt);
  runner.setExport(dir / "glb", ExportFormat::Glb);
  runner.pump();
  runner.stepOnce();
  runner.pump();
  runner.setExport(std::nullopt);
  runner.pump();
  EXPECT_TRUE(std::filesystem::exists(dir / "vtk" / "frame_00000.vtu"));
  EXPECT_TRUE(std::filesystem::exists(dir / "vtk" / "frame_00001.vtu"));
  EXPECT_TRUE(std::filesystem::exists(dir / "vtk" / "frames.pvd"));
  EXPECT_TRUE(std::filesystem::exists(dir / "glb" / "animation.glb"));
  EXPECT_TRUE(hasMessage(runner, "exported 2 frames to")) << "frames 1 and 2 into the .glb";
}

TEST(GuiRunner, DragPullsThePatchWithoutRefactoring) {
  SimRunner runner(boxSimulation(), false);
  runner.setPlaying(true);
  runner.pump();
  const long factorizations = runner.snapshot()->record.factorizations;
  const Vec3 start = vertex(runner.snapshot()->x, 8), target = start + Vec3(0, 0.3, 0);
  runner.setDrag({Drag{8, target, 1e6}});
  for (int i = 0; i < 20; ++i) runner.pump();
  const auto s = runner.snapshot();
  EXPECT_LT((vertex(s->x, 8) - target).norm(), 0.5 * (start - target).norm());
  EXPECT_EQ(s->record.factorizations, factorizations);
  runner.setDrag({});
  runner.pump();
}

// A cut through the box (x = 0.1, between its vertex planes, seen from above) takes the slab of cells it
// crosses: the next snapshot has a new surface, with faces on vertices that were inside; the one before
// stays as it was for whoever draws it.
TEST(GuiRunner, ACutPublishesTheNewSurfaceAndResetBringsBackTheOld) {
  SimRunner runner(boxSimulation(), false);
  const std::shared_ptr<const view::SurfaceView> before = runner.snapshot()->surface;
  const size_t triangles = before->local.size();
  const Vec3 apex(0.1, 2, 0);
  runner.apply(Cut{apex, Vec3(0.1, 0, -2) - apex, Vec3(0.1, 0, 2) - apex});
  runner.pump();
  const auto s = runner.snapshot();
  EXPECT_NE(s->surface, before);
  bool opened = false;  // faces on vertices that were inside the box
  for (size_t v = 0; v < before->global_to_local.size(); ++v)
    opened |= before->global_to_local[v] < 0 && s->surface->global_to_local[v] >= 0;
  EXPECT_TRUE(opened);
  EXPECT_EQ(before->local.size(), triangles);
  EXPECT_GT(s->removed, 0);
  EXPECT_TRUE(hasMessage(runner, "cut " + std::to_string(s->removed) + " elements"));
  runner.pump();
  EXPECT_EQ(runner.snapshot()->surface, s->surface) << "no new surface without a change";
  runner.reset();
  runner.pump();
  EXPECT_EQ(runner.snapshot()->surface->local, before->local);
  EXPECT_EQ(runner.snapshot()->removed, 0);
}

// Choosing pbd or xpbd in the Solver panel applies between frames; the drag and the telemetry work with
// them as with ours (a sweep's trials are 0, its residual is recorded), and switching back works too.
TEST(GuiRunner, PositionBasedMethodsApplyLiveWithTheDrag) {
  SimRunner runner(boxSimulation(), false);
  runner.setPlaying(true);
  runner.pump();
  for (const std::string method : {"pbd", "xpbd", "qn"}) {
    runner.apply(SetParameter{"solver.method", method});
    const int frame = runner.snapshot()->frame;
    const Vec3 start = vertex(runner.snapshot()->x, 8), target = start + Vec3(0, 0.2, 0);
    runner.setDrag({Drag{8, target, 1e5}});
    for (int i = 0; i < 10; ++i) runner.pump();
    const auto s = runner.snapshot();
    EXPECT_EQ(s->frame, frame + 10);
    EXPECT_TRUE(s->x.allFinite());
    EXPECT_LT((vertex(s->x, 8) - target).norm(), 0.7 * (start - target).norm()) << method;
    EXPECT_EQ(std::isnan(s->iterations.back().residual), method == "qn");
    runner.setDrag({});
  }
}

TEST(GuiRunner, PinCompareSaveAndLoadGoThroughCommands) {
  SimRunner runner(boxSimulation(), false);
  const long pin = runner.apply(PinVertices{{2, 6}, 1e6});
  runner.pump();
  EXPECT_EQ(runner.snapshot()->attached.size(), 4u);
  EXPECT_EQ(runner.snapshot()->edits_done, pin);
  EXPECT_TRUE(hasMessage(runner, "pinned 2 vertices"));
  runner.apply(PinVertices{{2}, -1.0});
  runner.pump();
  EXPECT_TRUE(hasMessage(runner, "pin: the stiffness must be positive and finite, got -1")) << "a rejected edit is said";

  runner.compare({{"QN", {"solver.method=qn"}}, {"PD", {"solver.method=pd"}}});
  runner.pump();
  const auto compare = runner.snapshot()->compare;
  ASSERT_TRUE(compare);
  ASSERT_EQ(compare->traces.size(), 2u);
  EXPECT_EQ(compare->traces[0].label, "QN");
  EXPECT_EQ(compare->traces[1].label, "PD");
  EXPECT_EQ(compare->traces[0].rel_error.front(), 1.0);
  EXPECT_FALSE(runner.busy());
  EXPECT_EQ(runner.snapshot()->frame, 0);  // compare does not advance
  const auto files = exportComparison(*compare, test::scratchDir("gui_runner") / "compare" / "cmp", "bar");
  ASSERT_EQ(files.size(), 3u);  // as qnsim experiment writes a convergence figure
  std::ifstream csv(files[0]);
  std::string header, first;
  std::getline(csv, header);
  std::getline(csv, first);
  EXPECT_EQ(header, "method,frame,iter,time_ms,rel_error");
  EXPECT_EQ(first.rfind("QN,1,0,", 0), 0u) << first;
  for (const auto& f : files) EXPECT_GT(std::filesystem::file_size(f), 100u) << f;

  const auto path = test::scratchDir("gui_runner") / "state.json";
  runner.setPlaying(true);
  runner.pump();
  runner.setPlaying(false);
  runner.saveState(path);
  runner.pump();
  const VecX saved = runner.snapshot()->x;
  runner.setPlaying(true);
  runner.pump();
  runner.pump();
  EXPECT_EQ(runner.snapshot()->frame, 3);
  runner.setPlaying(false);
  runner.loadState(path);
  runner.pump();
  EXPECT_EQ(runner.snapshot()->frame, 1);
  EXPECT_EQ(runner.snapshot()->x, saved);
  runner.loadState(test::scratchDir("gui_runner") / "missing.json");
  runner.pump();
  EXPECT_TRUE(hasMessage(runner, "missing.json"));
}

TEST(GuiRunner, ThreadedRunnerPublishesFramesAndAppliesCommandsInOrder) {
  SimRunner runner(boxSimulation(), true);
  runner.setRealTime(false);
  runner.setPlaying(true);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (runner.snapshot()->frame < 5 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_GE(runner.snapshot()->frame, 5);
  runner.setPlaying(false);
  runner.setColorMode(ColorMode::Strain);
  runner.sync();
  const int frame = runner.snapshot()->frame;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  runner.setColorMode(ColorMode::Strain);  // republish after the pause
  runner.sync();
  EXPECT_EQ(runner.snapshot()->frame, frame);
  EXPECT_EQ(runner.snapshot()->field_mode, ColorMode::Strain);
  EXPECT_EQ(runner.snapshot()->field.size(), 27u);
}

TEST(GuiFields, RestStateIsUnstressedUnstrainedAndUninverted) {
  const BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "neo_hookean"})"));
  std::vector<float> field;
  for (ColorMode mode : {ColorMode::Stress, ColorMode::Strain, ColorMode::Inversion}) {
    vertexField(built.model, built.model.rest, mode, field);
    ASSERT_EQ(field.size(), 27u);
    for (float v : field) EXPECT_NEAR(v, 0.0f, 1e-6f);
  }
  VecX stretched = built.model.rest;
  for (int v = 0; v < 27; ++v) stretched[3 * v] *= 1.2;
  vertexField(built.model, stretched, ColorMode::Strain, field);
  for (float v : field) EXPECT_NEAR(v, 0.2f, 1e-5f);
  vertexField(built.model, built.model.rest, ColorMode::Region, field);
  EXPECT_TRUE(field.empty());
  std::vector<float> spiky(100, 1.0f);
  spiky[7] = 1000.0f;  // one spike does not set the colour range
  EXPECT_EQ(robustMax(spiky, 0.5f), 1.0f);
  EXPECT_EQ(robustMax({}, 0.5f), 0.5f);
}

}  // namespace
}  // namespace qnsim::gui
