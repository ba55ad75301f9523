// Opening files in the sandbox (app/gui/logic/scene_opener.h): every kind of file that cannot be
// opened gives one line that names the file and says what is wrong, and the scene that runs goes on as it
// was: step for step the same as a twin that was never asked to open anything, with its pins, material
// edit, settings edit and recording. The window's Open button, its lists and dropped files all use the
// opener; tests/test_gui_screenshots.cpp drives it once through the window.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "app/gui/logic/scene_opener.h"
#include "core/common/parallel.h"
#include "core/common/process.h"
#include "qnsim/parameters.h"
#include "tests/mesh_fixtures.h"
#include "tests/test_util.h"

namespace qnsim::gui {
namespace {

namespace fs = std::filesystem;

const std::string kGoodScene = R"({"version": 1, "threads": 1,
  "bodies": [{"shape": {"type": "box", "size": [1, 0.6, 0.6], "cells": [3, 2, 2]}, "translate": [0, 0.5, 0],
    "materials": [{"model": "neo_hookean", "mu": 1e5, "lambda": 4e5}], "handles": [{"select": {"indices": [0]}}]}],
  "colliders": [{"type": "plane"}]})";

// kGoodScene with `text` inserted after its first brace.
std::string goodSceneWith(const std::string& text) { return "{" + text + ", " + kGoodScene.substr(1); }

std::string randomBytes(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::string bytes(count, '\0');
  for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
  return bytes;
}

struct BadFile {
  std::string name;
  std::vector<std::string> expected;  // in the message, besides the file's name
};

// Writes every kind of bad file into `dir` (except the missing one).
std::vector<BadFile> writeBadFiles(const fs::path& dir) {
  using test::writeText;
  const fs::path meshes = test::testDataDir() / "meshes";
  const std::string medit = test::readText(meshes / "cube5.mesh"), obj = test::readText(meshes / "cube.obj");
  writeText(dir / "truncated.json", kGoodScene.substr(0, 70));
  writeText(dir / "empty.json", "");
  writeText(dir / "garbage.json", randomBytes(400, 1));
  writeText(dir / "unknown_key.json", goodSceneWith(R"("time_stpe": 0.01)"));
  writeText(dir / "wrong_type.json", goodSceneWith(R"("solver": {"iterations": "ten"})"));
  writeText(dir / "out_of_range.json", goodSceneWith(R"("material_damping": -1)"));
  writeText(dir / "beyond_double.json", goodSceneWith(R"("damping": 1e999)"));
  writeText(dir / "no_bodies.json", R"({"version": 1, "bodies": []})");
  // Fails only while the model is built, after its settings (another thread count) were read.
  writeText(dir / "bad_handle.json",
            R"({"version": 1, "threads": 3, "bodies": [{"shape": {"type": "box", "size": [1, 1, 1], "cells": [1, 1, 1]},
    "materials": [{"model": "corotated"}], "handles": [{"select": {"indices": [99]}}]}]})");
  writeText(dir / "missing_mesh.json", R"({"version": 1, "bodies": [{"mesh": "nowhere.mesh", "materials": [{"model": "corotated"}]}]})");
  writeText(dir / "huge.json", R"({"version": 1, "bodies": [{"shape": {"type": "box", "size": [1, 1, 1], "cells": [1000, 1000, 1000]},
    "materials": [{"model": "corotated"}]}]})");
  writeText(dir / "picture.png", "\x89PNG\r\n\x1a\n" + randomBytes(200, 2));
  fs::create_directory(dir / "folder.json");
  writeText(dir / "truncated.mesh", test::firstLines(medit, 11));
  writeText(dir / "not_finite.mesh", test::withLine(medit, 9, "1 NaN 0  0"));
  writeText(dir / "flat_tet.mesh", test::withLine(medit, 27, "1 2 3 4  7"));
  writeText(dir / "inverted_tet.mesh", test::withLine(medit, 31, "2 3 8 5  9"));
  writeText(dir / "garbage.mesh", randomBytes(400, 3));
  writeText(dir / "open.obj", obj.substr(0, obj.rfind("f 3 1 5 7")));
  const bool tetgen = !findProgram("tetgen").empty();
  return {
      {"truncated.json", {"JSON syntax error"}},
      {"empty.json", {"empty.json:1:1", "JSON syntax error"}},
      {"garbage.json", {"JSON syntax error"}},
      {"unknown_key.json", {"/time_stpe", "did you mean 'time_step'"}},
      {"wrong_type.json", {"/solver/iterations", "whole number"}},
      {"out_of_range.json", {"/material_damping", "[0, 10]"}},
      {"beyond_double.json", {"1e999"}},
      {"no_bodies.json", {"at least one body"}},
      {"bad_handle.json", {"99"}},
      {"missing_mesh.json", {"/bodies/0/mesh", "nowhere.mesh"}},
      {"huge.json", {"would need about", "memory_share"}},
      {"picture.png", {"not a scene or mesh file"}},
      {"folder.json", {"is a folder"}},
      {"missing.json", {"no such file"}},
      {"truncated.mesh", {"expected 8 vertices"}},
      {"not_finite.mesh", {"not_finite.mesh:9:", "not a finite number"}},
      {"flat_tet.mesh", {"flat_tet.mesh:27:", "degenerate"}},
      {"inverted_tet.mesh", {"inverted"}},
      {"garbage.mesh", {"garbage.mesh:1:"}},
      {"open.obj", {tetgen ? "not closed" : "tetgen"}},
  };
}

// What a user has done to the running scene: pins, a material and a settings edit, a recording.
void editAsAUser(Session& session, const fs::path& recording) {
  SimRunner& runner = *session.runner;
  runner.apply(PinVertices{{5, 6, 7}, 1e4});
  runner.apply(SetParameter{"material." + runner.snapshot()->regions[0].name + ".mu", 3e4});
  runner.apply(SetParameter{"solver.iterations", 7});
  runner.startRecording(recording, 1000);
  // Pins and material edits refactor A on a worker thread, adopted at the first frame after it is done;
  // the Compare action waits for it, so that a scene and its twin adopt theirs at the same frame.
  runner.compare({{"qn", {}}});
  runner.setPlaying(true);
}

std::unique_ptr<Session> openNow(SceneOpener& opener, const std::string& path) {
  EXPECT_FALSE(opener.open(path).has_value());
  std::optional<OpenOutcome> outcome = opener.poll(true);
  EXPECT_TRUE(outcome && outcome->session) << path << ": " << (outcome ? outcome->error : "no outcome");
  return outcome ? std::move(outcome->session) : nullptr;
}

TEST(GuiOpen, EveryBadFileGivesOneLineAndTheRunningSceneGoesOnAsItWas) {
  const fs::path dir = test::scratchDir("gui_open");
  const std::vector<BadFile> bad = writeBadFiles(dir);
  const std::string good = test::writeText(dir / "good.json", kGoodScene).string();
  SceneOpener opener(false);  // the test steps the sessions itself, so that they can be compared
  std::unique_ptr<Session> session = openNow(opener, good), twin = openNow(opener, good);
  ASSERT_TRUE(session && twin);
  editAsAUser(*session, dir / "recording");
  editAsAUser(*twin, dir / "twin_recording");
  const Session* running = session.get();
  const int threads = threadCount();
  int frames = 0;
  for (const BadFile& file : bad) {
    const std::string path = (dir / file.name).string();
    EXPECT_FALSE(opener.open(path).has_value());
    std::optional<OpenOutcome> outcome = opener.poll(true);
    ASSERT_TRUE(outcome.has_value()) << file.name;
    EXPECT_FALSE(outcome->session) << file.name;
    const std::string& message = outcome->error;
    EXPECT_TRUE(message.starts_with("cannot open ")) << message;
    EXPECT_NE(message.find(file.name), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (const std::string& part : file.expected)
      EXPECT_NE(message.find(part), std::string::npos) << file.name << ": '" << part << "' not in: " << message;
    std::printf("%s\n", message.c_str());
    EXPECT_EQ(threadCount(), threads) << file.name;

    session->runner->pump();
    twin->runner->pump();
    ++frames;
    EXPECT_EQ(session.get(), running);
    ASSERT_TRUE(session->runner->snapshot()->x == twin->runner->snapshot()->x) << "after " << file.name;
  }
  EXPECT_FALSE(opener.poll().has_value()) << "each outcome is given once";
  const auto snapshot = session->runner->snapshot();
  EXPECT_EQ(snapshot->frame, frames);
  EXPECT_EQ(snapshot->attached, (std::vector<int>{0, 5, 6, 7}));
  EXPECT_TRUE(snapshot->recording);
  EXPECT_EQ(snapshot->recorded, frames);
  EXPECT_EQ(snapshot->iterations.size(), 8u) << "the settings edit (7 iterations) holds";
  EXPECT_TRUE(snapshot->x == twin->runner->snapshot()->x);
}

// The window's own mode: the scene runs on its thread while files load on another, among them scenes with
// another thread count (which once replaced the worker pool under the running scene's loops).
TEST(GuiOpen, ASceneRunningOnItsThreadKeepsRunningWhileFilesLoad) {
  const fs::path dir = test::scratchDir("gui_open_threaded");
  const std::string good = test::writeText(dir / "good.json", kGoodScene).string();
  const std::string other_threads = test::writeText(dir / "two_threads.json", goodSceneWith(R"("threads": 2)")).string();
  const std::vector<BadFile> bad = writeBadFiles(dir);
  SceneOpener opener(true);
  std::unique_ptr<Session> session = openNow(opener, good);
  ASSERT_TRUE(session);
  editAsAUser(*session, dir / "recording");
  for (int round = 0; round < 3; ++round) {
    for (const BadFile& file : bad) {
      EXPECT_FALSE(opener.open((dir / file.name).string()).has_value());
      EXPECT_TRUE(opener.open(good).has_value()) << "a second open while one loads is refused with a message";
      const std::optional<OpenOutcome> outcome = opener.poll(true);
      ASSERT_TRUE(outcome && !outcome->session) << file.name;
    }
    std::unique_ptr<Session> loaded = openNow(opener, other_threads);  // loaded, never adopted
    EXPECT_TRUE(loaded);
  }
  const int frame = session->runner->snapshot()->frame;
  session->runner->sync();
  for (int wait = 0; wait < 200 && session->runner->snapshot()->frame < frame + 5; ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_GE(session->runner->snapshot()->frame, frame + 5) << "the running scene stopped";
  EXPECT_TRUE(session->runner->snapshot()->x.allFinite());
  EXPECT_TRUE(session->runner->snapshot()->recording);
}

// Open fills a surface with the Tetrahedralisation controls and reports the tets' quality; a scene
// file has no such report (its bodies carry their own "tetgen").
TEST(GuiOpen, ASurfaceOpensWithTheTetgenControlsAndItsQualityReport) {
  if (findProgram("tetgen").empty()) GTEST_SKIP() << "the tetgen program is not installed";
  const fs::path dir = test::scratchDir("gui_open_surface");
  fs::copy_file(test::testDataDir() / "meshes" / "cube.obj", dir / "cube.obj");
  SceneOpener opener(false);
  TetgenOptions coarse, fine;
  fine.edge_length = 0.1;
  fine.cache_dir = coarse.cache_dir = dir / "cache";
  ASSERT_FALSE(opener.open((dir / "cube.obj").string(), {}, coarse).has_value());
  const std::unique_ptr<Session> a = std::move(opener.poll(true)->session);
  ASSERT_FALSE(opener.open((dir / "cube.obj").string(), {}, fine).has_value());
  const std::unique_ptr<Session> b = std::move(opener.poll(true)->session);
  ASSERT_TRUE(a && b);
  EXPECT_GT(b->tets, 4 * a->tets) << "tets of 0.1 m fill the cube more finely than tetgen's own choice";
  EXPECT_NE(b->mesh_quality.find("worst tets"), std::string::npos) << b->mesh_quality;
  const std::string good = test::writeText(dir / "good.json", kGoodScene).string();
  EXPECT_TRUE(openNow(opener, good)->mesh_quality.empty());
}

}  // namespace
}  // namespace qnsim::gui
