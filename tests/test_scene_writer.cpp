// The scene writer (writeScene, Simulation::savedScene): every catalog scene written and read back is the
// same scene and runs the same frames bit for bit; a scene edited live and saved runs, opened fresh, as
// the live one does after a Reset; the file says only what a person would write.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdlib>

#include "core/common/files.h"
#include "core/material/spline.h"
#include "core/mesh/shapes.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

void expectSameMaterial(const Material& a, const Material& b, const std::string& what) {
  ASSERT_EQ(a.model(), b.model()) << what;
  for (const MaterialParameter& p : a.parameters()) EXPECT_EQ(a.get(p.key), b.get(p.key)) << what << ": " << p.key;
  if (const auto* spline = dynamic_cast<const SplineMaterial*>(&a)) {
    EXPECT_EQ(spline->controlPoints(), static_cast<const SplineMaterial&>(b).controlPoints()) << what;
  }
}

void expectSameScene(const Scene& a, const Scene& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.description, b.description);
  EXPECT_EQ(a.frames, b.frames);
  for (const SettingParameter& p : parameters()) EXPECT_TRUE(p.get(a.settings) == p.get(b.settings)) << p.key;
  EXPECT_TRUE(a.colliders == b.colliders);
  EXPECT_TRUE(a.camera == b.camera);
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (size_t i = 0; i < a.bodies.size(); ++i) {
    const BodyDesc &x = a.bodies[i], &y = b.bodies[i];
    SCOPED_TRACE(x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_TRUE(x.mesh.V == y.mesh.V && x.mesh.T == y.mesh.T && x.mesh.region == y.mesh.region);
    EXPECT_TRUE(x.springs.surface.V == y.springs.surface.V);
    EXPECT_EQ(x.density, y.density);
    EXPECT_TRUE(x.velocity == y.velocity);
    EXPECT_TRUE(x.handles == y.handles);
    EXPECT_TRUE(x.removed == y.removed);
    ASSERT_EQ(x.materials.size(), y.materials.size());
    for (size_t m = 0; m < x.materials.size(); ++m) {
      EXPECT_EQ(x.materials[m].name, y.materials[m].name);
      EXPECT_EQ(x.materials[m].region, y.materials[m].region);
      EXPECT_TRUE(x.materials[m].fiber == y.materials[m].fiber);
      expectSameMaterial(*x.materials[m].material, *y.materials[m].material, x.materials[m].name);
    }
  }
}

// Both simulations run `frames` frames to the same bits.
void expectSameFrames(Simulation& a, Simulation& b, int frames) {
  for (int f = 1; f <= frames; ++f) {
    a.step(), b.step();
    ASSERT_TRUE(a.positions() == b.positions()) << "frame " << f << ": |difference| " << (a.positions() - b.positions()).norm();
    ASSERT_TRUE(a.velocities() == b.velocities()) << "frame " << f;
  }
}

class SceneRoundTrip : public ::testing::TestWithParam<std::string> {};

// Read, write, read: the same scene and the same trajectory; written again, the same text.
TEST_P(SceneRoundTrip, ReadWriteReadGivesTheSameSceneAndFrames) {
  const Scene scene = loadScene(catalogScenePath(GetParam()), {"threads=1"});
  const auto dir = test::scratchDir("scene_writer_" + GetParam());
  writeScene(scene, dir / "saved.json");
  const Scene again = loadScene(dir / "saved.json");
  expectSameScene(scene, again);
  writeScene(again, dir / "again.json");
  EXPECT_EQ(readFileBytes(dir / "saved.json"), readFileBytes(dir / "again.json"));
  Simulation original(scene), reread(again);
  expectSameFrames(original, reread, 3);
}

INSTANTIATE_TEST_SUITE_P(Catalog, SceneRoundTrip, ::testing::ValuesIn(catalogSceneNames()));

// A scene written as it was read keeps its author's text: the catalog's cloth, its comments aside
// (JSON has none), comes back with the same keys, values and paths.
TEST(SceneWriter, AnUneditedSceneKeepsItsKeysAndPaths) {
  const auto dir = test::scratchDir("scene_writer_unedited");
  writeScene(loadScene(catalogScenePath("bunny_torus")), dir / "bunny.json");
  const std::string text = readFileBytes(dir / "bunny.json");
  const std::string source = readFileBytes(catalogScenePath("bunny_torus"));
  for (const char* kept : {"\"time_step\": 0.03333333333333333", "\"contact_stiffness\": 10", "\"solver\": {\"method\": \"qn\", \"iterations\": 10, \"lbfgs_window\": 5}",
                           "\"rotate\": {\"axis\": [1, 0, 0], \"degrees\": 90}", "\"materials\": [{\"model\": \"corotated\", \"mu\": 5, \"lambda\": 200}]"}) {
    EXPECT_NE(source.find(kept), std::string::npos) << "the test's premise: " << kept;
    EXPECT_NE(text.find(kept), std::string::npos) << kept << " in\n" << text;
  }
  const std::string mesh = (std::filesystem::relative(test::sourceDir() / "assets", dir) / "bunny_big.mesh").generic_string();
  EXPECT_NE(text.find("\"mesh\": \"" + mesh + "\""), std::string::npos) << "the mesh path is relative to the new file: " << text;
  EXPECT_EQ(text.find("self_collision"), std::string::npos) << "no default the file did not write";
}

// Overrides (`--set`) are written; a setting edited back to its default is still written when the file
// wrote it, and defaults it never wrote are not.
TEST(SceneWriter, WritesWhatDiffersAndWhatTheFileWrote) {
  Scene scene = loadScene(catalogScenePath("cloth"), {"solver.lbfgs_window=7", "material.stretch.k=2500", "wind.drag=2"});
  const auto dir = test::scratchDir("scene_writer_overrides");
  writeScene(scene, dir / "cloth.json");
  const std::string text = readFileBytes(dir / "cloth.json");
  EXPECT_NE(text.find("\"lbfgs_window\": 7"), std::string::npos) << text;
  EXPECT_NE(text.find("\"k\": 2500"), std::string::npos) << text;
  EXPECT_NE(text.find("\"wind\": {\"drag\": 2"), std::string::npos) << text;
  EXPECT_NE(text.find("\"iterations\": 10"), std::string::npos) << "the file wrote it, though it is the default";
  EXPECT_EQ(text.find("armijo_gamma"), std::string::npos) << "a default the file did not write";
  expectSameScene(scene, loadScene(dir / "cloth.json"));
}

// A bare mesh opens as a scene of its own; saved, it is a scene file naming the mesh.
TEST(SceneWriter, ABareMeshSceneIsSavedAsASceneFile) {
  const Scene scene = loadScene(test::sourceDir() / "assets" / "cube.mesh");
  const auto dir = test::scratchDir("scene_writer_bare");
  writeScene(scene, dir / "cube.json");
  const Scene again = loadScene(dir / "cube.json");
  expectSameScene(scene, again);
  Simulation a(scene), b(again);
  expectSameFrames(a, b, 3);
}

// A body made in code has no file to name: its mesh is written beside the scene.
TEST(SceneWriter, ABodyMadeInCodeHasItsMeshWrittenBesideTheScene) {
  const TetMesh box = makeBox(Vec3(1, 0.2, 0.2), Eigen::Vector3i(4, 1, 1));
  auto rubber = makeMaterial("neo_hookean");
  rubber->set("mu", 3e4);
  Scene scene;
  scene.name = "made in code";
  scene.bodies.push_back(makeTetBody("beam", box.V, box.T, std::move(rubber), 800));
  HandleDesc wall;
  wall.name = "wall";
  wall.select.kind = Selection::Kind::Indices;
  wall.select.indices = {0, 1, 2};
  wall.stiffness = 5e3;
  scene.bodies.back().handles.push_back(wall);
  scene.settings.solver.iterations = 12;
  const auto dir = test::scratchDir("scene_writer_code");
  writeScene(scene, dir / "beam.json");
  EXPECT_TRUE(std::filesystem::exists(dir / "beam.beam.mesh"));
  const Scene again = loadScene(dir / "beam.json");
  expectSameScene(scene, again);
  Simulation a(scene), b(again);
  expectSameFrames(a, b, 3);
}

// Every kind of live edit, saved and opened fresh: the same frames as the live simulation after a Reset.
TEST(SceneWriter, AnEditedSceneSavedRunsAsTheLiveOneAfterAReset) {
  Simulation live(loadScene(catalogScenePath("bunny_torus"), {"threads=1"}));
  live.step();
  live.apply(SetParameter{"solver.lbfgs_window", 3});
  live.apply(SetParameter{"contact_stiffness", 12.5});
  live.apply(SetParameter{"material.bunny.mu", 6.0});
  live.apply(PinVertices{{40, 7, 300}, 2e3});
  live.apply(PinVertices{{12}, 4e3});
  Collider ring = live.scene().colliders[0];
  ring.position.y() += 0.01;
  live.apply(SetCollider{0, ring});
  live.step();
  live.apply(UnpinVertices{{7}});
  const auto dir = test::scratchDir("scene_writer_edited");
  writeScene(live.savedScene(), dir / "edited.json");
  Simulation fresh(loadScene(dir / "edited.json"));
  live.apply(Reset{});
  expectSameFrames(live, fresh, 4);
}

// Handles of the scene whose vertices were released are written without them; switched models too.
TEST(SceneWriter, ReleasedHandleVerticesAndModelSwitchesAreSaved) {
  Simulation live(loadScene(catalogScenePath("cloth"), {"threads=1"}));
  live.apply(UnpinVertices{{0}});
  live.apply(SetMaterial{"bend", makeMaterial("spring")});
  auto stiff = makeMaterial("spring");
  stiff->set("k", 3000);
  live.apply(SetMaterial{"stretch", std::move(stiff)});
  const auto dir = test::scratchDir("scene_writer_released");
  writeScene(live.savedScene(), dir / "cloth.json");
  const std::string text = readFileBytes(dir / "cloth.json");
  EXPECT_NE(text.find("\"indices\": [6480]"), std::string::npos) << text;
  Simulation fresh(loadScene(dir / "cloth.json"));
  live.apply(Reset{});
  expectSameFrames(live, fresh, 3);
}

// With the removed elements, the saved scene starts without them (a cut kept) and A is factored so.
TEST(SceneWriter, RemovedElementsAreAnOptionalSection) {
  Simulation live(parseScene(test::clothSceneJson(), test::sourceDir() / "scenes" / "inline.json", {"threads=1", "tearing.matrix=refactor"}));
  live.step();
  const Vec3 apex(0.05, 1, 0);
  ASSERT_GT(live.apply(Cut{apex, Vec3(0.05, 0, -2) - apex, Vec3(0.05, 0, 2) - apex}).removed, 0);
  const auto dir = test::scratchDir("scene_writer_removed");
  writeScene(live.savedScene(), dir / "whole.json");
  writeScene(live.savedScene(true), dir / "cut.json");
  EXPECT_EQ(readFileBytes(dir / "whole.json").find("\"removed\""), std::string::npos);
  const Scene cut = loadScene(dir / "cut.json");
  Simulation fresh(cut);
  EXPECT_TRUE(fresh.state().removed == live.state().removed);
  EXPECT_EQ(fresh.lastFrame().removed, live.state().removed.size());
}

// The model keeps its tets in a spatial order (Body::mesh_tet); the saved scene names the removed tets
// by their place in the mesh, which the scene holds, and reading it back removes the same tets.
TEST(SceneWriter, RemovedTetsAreSavedAsTheMeshsTets) {
  Simulation live(parseScene(test::boxSceneJson(R"({"model": "corotated"})"), test::sourceDir() / "scenes" / "inline.json", {"threads=1"}));
  const Vec3 apex(0.05, 1, 0);
  ASSERT_GT(live.apply(Cut{apex, Vec3(0.05, -1, -2) - apex, Vec3(0.05, -1, 2) - apex}).removed, 0);
  const Scene saved = live.savedScene(true);
  const std::vector<int>& named = saved.bodies[0].removed.tets;
  const std::vector<int>& removed = live.state().removed.tets;
  ASSERT_EQ(named.size(), removed.size());
  EXPECT_TRUE(std::is_sorted(named.begin(), named.end()));
  const Body& body = live.model().bodies[0];
  bool renumbered = false;
  for (int e : removed) {
    const int mesh_tet = body.mesh_tet[e - body.first_tet];
    renumbered = renumbered || mesh_tet != e - body.first_tet;
    EXPECT_TRUE(std::binary_search(named.begin(), named.end(), mesh_tet)) << "model tet " << e;
    const Eigen::Vector4i in_mesh = saved.bodies[0].mesh.T.row(mesh_tet).transpose().array() + body.first_vertex;
    EXPECT_EQ(in_mesh, live.model().tets.vertices[e]) << e;
  }
  EXPECT_TRUE(renumbered) << "the cut should reach tets the spatial order moved";
  const auto path = test::scratchDir("scene_writer_removed_tets") / "cut.json";
  writeScene(saved, path);
  Simulation fresh(loadScene(path));
  EXPECT_EQ(fresh.state().removed.tets, removed);
}

TEST(SceneWriter, AFileThatCannotBeWrittenIsNamed) {
  const Scene scene = loadScene(catalogScenePath("twisting_bar"));
  const auto where = test::scratchDir("scene_writer_fail") / "no such folder" / "bar.json";
  try {
    writeScene(scene, where);
    FAIL() << "written";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(where.string()), std::string::npos) << e.what();
  }
}

// A save killed half-way (here by the file size limit, as a full disk or a crash would stop it) leaves the
// file it was replacing as it was.
TEST(SceneWriter, ASaveInterruptedMidWayLeavesTheOldFile) {
  const Scene scene = loadScene(catalogScenePath("cloth"), {"solver.lbfgs_window=9"});
  const auto path = test::scratchDir("scene_writer_interrupted") / "cloth.json";
  writeScene(loadScene(catalogScenePath("cloth")), path);
  const std::string before = readFileBytes(path);
  ASSERT_GT(before.size(), 600u);
  const auto saveWithin512Bytes = [&] {  // the write stops in the middle of the file
    rlimit limit;
    limit.rlim_cur = limit.rlim_max = 512;
    setrlimit(RLIMIT_FSIZE, &limit);
    writeScene(scene, path);
    std::exit(0);
  };
  EXPECT_EXIT(saveWithin512Bytes(), ::testing::KilledBySignal(SIGXFSZ), "");
  EXPECT_EQ(readFileBytes(path), before);
}

// A handle's positions must pair with its indices, one each.
TEST(SceneWriter, HandlePositionsAreChecked) {
  std::string json = test::boxSceneJson(R"({"model": "neo_hookean"})");
  const std::string handle = R"("handles": [{"select": {"indices": [0, 26]}, "stiffness": 3e4}])";
  ASSERT_NE(json.find(handle), std::string::npos);
  json.replace(json.find(handle), handle.size(), R"("handles": [{"select": {"indices": [0, 1]}, "positions": [[0, 0, 0]]}])");
  try {
    parseScene(json, "inline.json");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("1 positions for 2 indices"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace qnsim
