// The scene catalog (scenes/*.json): every file the issue asks for is there, loads, and runs a few
// frames headless with finite positions; each is described in docs/scene_format.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "core/common/files.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

const std::vector<std::string> kCatalog = {
    "squirrel_head", "squirrel_head_soft_pd", "squirrel_head_stiff_pd", "bunny_torus", "hippo", "hippo_recovery", "cloth",
    "twisting_bar", "shaking_bar", "sphere_spline_a", "sphere_spline_b", "thin_sheet", "cube_isotropic", "cube_anisotropic",
    "teaser_materials", "flag_wind", "flag_tearing", "bar_tearing", "cloth_sphere_fold", "soft_body_fold",
    "brush_bristles", "squirrel_head_render", "bunny_render", "hippo_render", "squirrel_cages"};

// Every setting of the registry has a row in the format's table, naming each of its choices.
TEST(Catalog, TheFormatDocumentsEverySettingAndChoice) {
  const std::string doc = readFileBytes(test::sourceDir() / "docs" / "scene_format.md");
  std::vector<std::string> rows;
  std::istringstream lines(doc);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("| `", 0) == 0) rows.push_back(line);
  for (const SettingParameter& p : parameters()) {
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const std::string& r) { return r.find("`" + p.key + "`") < r.find(" | ", 1); });
    ASSERT_NE(row, rows.end()) << p.key << " has no row in docs/scene_format.md";
    for (const std::string& choice : p.choices) EXPECT_NE(row->find("`" + choice + "`"), std::string::npos) << p.key << "'s " << choice << " is not in its row";
  }
}

TEST(Catalog, HasEverySceneAndDocumentsIt) {
  const std::vector<std::string> files = catalogSceneNames();
  std::ifstream doc(test::sourceDir() / "docs" / "scene_format.md");
  std::stringstream text;
  text << doc.rdbuf();
  for (const std::string& name : kCatalog) {
    EXPECT_TRUE(std::count(files.begin(), files.end(), name)) << "scenes/" << name << ".json is missing";
    EXPECT_NE(text.str().find("`" + name + ".json`"), std::string::npos) << name << " is not in docs/scene_format.md";
  }
  for (const std::string& file : files)
    EXPECT_TRUE(std::count(kCatalog.begin(), kCatalog.end(), file)) << "scenes/" << file << ".json is not in this test's list";
}

class CatalogScene : public ::testing::TestWithParam<std::string> {};

TEST_P(CatalogScene, LoadsAndRunsAFewFramesHeadless) {
  Scene scene = loadScene(catalogScenePath(GetParam()));
  EXPECT_FALSE(scene.description.empty());
  EXPECT_GE(scene.frames, 30);
  applyOverride(scene, "threads", "1");
  Simulation sim(scene);
  for (int f = 1; f <= 3; ++f) {
    ASSERT_NO_THROW(sim.step()) << "frame " << f;
    ASSERT_TRUE(sim.positions().allFinite()) << "frame " << f;
    EXPECT_TRUE(std::isfinite(sim.lastFrame().g)) << "frame " << f;
  }
  EXPECT_EQ(sim.lastFrame().factorizations, 1);
}

INSTANTIATE_TEST_SUITE_P(Scenes, CatalogScene, ::testing::ValuesIn(catalogSceneNames()));

// The benchmark scenes (scenes/benchmark/) are left out of the tests that step every catalog scene; they
// load, build (their handles select vertices, A is factored) and are documented.
TEST(Catalog, BenchmarkScenesLoadBuildAndAreDocumented) {
  const std::vector<std::string> names = benchmarkSceneNames();
  EXPECT_TRUE(std::count(names.begin(), names.end(), "squirrel_head_large"));
  const std::string doc = readFileBytes(test::sourceDir() / "docs" / "scene_format.md");
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    EXPECT_NE(doc.find("`benchmark/" + name + ".json`"), std::string::npos) << "not in docs/scene_format.md";
    Scene scene = loadScene(benchmarkSceneDir() / (name + ".json"));
    EXPECT_FALSE(scene.description.empty());
    applyOverride(scene, "threads", "1");
    const Simulation sim(scene);
    EXPECT_GT(sim.model().attachments.size(), 0u);
  }
}

}  // namespace
}  // namespace qnsim
