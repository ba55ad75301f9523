// The parameter registry and the scene reader: defaults are the paper's, parameters nest in the
// file as their dotted keys do, materials apply per region, handles select and move as described.
#include <gtest/gtest.h>

#include "core/mesh/shapes.h"
#include "core/scene/scene_parser.h"
#include "core/sim/build_model.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"
#include "tests/mesh_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

TEST(Parameters, DefaultsAreThePapers) {
  const Settings s;
  EXPECT_DOUBLE_EQ(s.time_step, 1.0 / 30.0);
  EXPECT_EQ(s.solver.method, SolverMethod::QuasiNewton);
  EXPECT_EQ(s.solver.iterations, 10);
  EXPECT_EQ(s.solver.lbfgs_window, 5);
  EXPECT_EQ(s.solver.line_search, LineSearchKind::Interpolate);
  EXPECT_DOUBLE_EQ(s.solver.armijo_gamma, 0.3);
  EXPECT_DOUBLE_EQ(s.solver.armijo_beta, 0.5);
  EXPECT_EQ(s.solver.stiffness_interval, Vec2(0.5, 1.5));
}

TEST(Parameters, EveryParameterRoundTripsThroughText) {
  for (const SettingParameter& p : parameters()) {
    Settings s;
    const std::string text = formatParameter(p, p.get(s));
    setParameter(s, p.key, text);
    EXPECT_EQ(formatParameter(p, p.get(s)), text) << p.key;
    EXPECT_FALSE(p.description.empty()) << p.key;
    EXPECT_EQ(formatParameter(p, p.get(Settings())), formatParameter(p, p.default_value)) << p.key;
  }
}

TEST(Parameters, SetRejectsBadValuesAndKeepsTheOldOne) {
  Settings s;
  EXPECT_THROW(setParameter(s, "solver.iterations", "1e12"), Error);
  EXPECT_THROW(setParameter(s, "solver.iterations", "2.5"), Error);
  EXPECT_THROW(setParameter(s, "gravity", "0,1"), Error);
  EXPECT_THROW(setParameter(s, "gravity", "0,inf,0"), Error);
  EXPECT_THROW(setParameter(s, "damping", "1.5"), Error);
  EXPECT_EQ(s.solver.iterations, 10);
  setParameter(s, "gravity", "0,-1.62,0");
  EXPECT_EQ(s.gravity, Vec3(0, -1.62, 0));
  setParameter(s, "solver.method", "newton");
  EXPECT_EQ(s.solver.method, SolverMethod::Newton);
}

TEST(SceneReader, ParametersNestAsTheirKeys) {
  const Scene scene = parseScene(R"({"version": 1, "time_step": 0.01, "solver": {"method": "pd", "iterations": 25},
    "solver.lbfgs_window": 7, "bodies": [{"shape": {"type": "box", "size": [1, 1, 1], "cells": [1, 1, 1]},
    "materials": [{"model": "arap"}]}]})", "nested.json");
  EXPECT_DOUBLE_EQ(scene.settings.time_step, 0.01);
  EXPECT_EQ(scene.settings.solver.method, SolverMethod::ProjectiveDynamics);
  EXPECT_EQ(scene.settings.solver.iterations, 25);
  EXPECT_EQ(scene.settings.solver.lbfgs_window, 7);
}

TEST(SceneReader, MaterialsApplyPerRegionWithSpatiallyVaryingStiffness) {
  const std::string json = R"({"version": 1, "bodies": [{"name": "head", "mesh": ")" +
                           (test::sourceDir() / "assets" / "squirrel_head.mesh").string() + R"(",
      "materials": [{"name": "flesh", "model": "polynomial", "mu4": 1e4}, {"name": "teeth", "region": 1, "model": "polynomial", "mu4": 1e6}]}]})";
  const BuiltModel built = buildModel(parseScene(json, "regions.json"));
  const Model& m = built.model;
  ASSERT_EQ(m.regions.size(), 2u);
  int teeth = 0;
  for (int e = 0; e < m.tets.size(); ++e) teeth += m.tets.region[e] == 1;
  EXPECT_GT(teeth, 0);
  EXPECT_LT(teeth, m.tets.size() / 4);
  EXPECT_NEAR(m.regions[0].stiffness, 0.6e4, 1e-6);  // Eq. 11 for mu (x - 1)^4 on [0.5, 1.5]
  EXPECT_NEAR(m.regions[1].stiffness, 0.6e6, 1e-4);
}

TEST(SceneReader, HandlesSelectAndFollowTheirMotion) {
  Scene scene = loadScene(catalogScenePath("twisting_bar"));
  BuiltModel built = buildModel(scene);
  ASSERT_EQ(built.handles.size(), 2u);
  for (const HandleState& h : built.handles) {
    EXPECT_GT(h.attachments.size(), 20u) << h.name;
    EXPECT_NEAR(std::abs(h.center.x()), 0.5, 1e-9);
  }
  Mat3 R;
  Vec3 T;
  handleTransform(built.handles[0].desc, 10.0, R, T);  // after all three pulses: 3 x 90 degrees
  EXPECT_LE((R - Eigen::AngleAxisd(1.5 * M_PI, Vec3::UnitX()).toRotationMatrix()).norm(), 1e-12);
  EXPECT_EQ(T, Vec3::Zero());
  handleTransform(built.handles[0].desc, 0.0625, R, T);  // half way through the first pulse
  EXPECT_LE((R - Eigen::AngleAxisd(0.25 * M_PI, Vec3::UnitX()).toRotationMatrix()).norm(), 1e-12);
}

TEST(SceneReader, MaterialOverridesByName) {
  Scene scene = loadScene(catalogScenePath("cloth"));
  applyOverride(scene, "material.stretch.k", "123");
  EXPECT_DOUBLE_EQ(scene.bodies[0].materials[0].material->get("k"), 123);
  EXPECT_THROW(applyOverride(scene, "material.stretch.mu", "1"), Error);
  EXPECT_THROW(applyOverride(scene, "material.stretch.k", "-1"), Error);
}

TEST(SceneReader, ProblemsFoundWhileBuildingNameTheBody) {
  const Scene scene = parseScene(R"({"version": 1, "bodies": [{"name": "cube", "shape": {"type": "box", "size": [1, 1, 1], "cells": [1, 1, 1]},
    "materials": [{"model": "arap"}], "handles": [{"name": "nowhere", "select": {"box": {"min": [5, 5, 5], "max": [6, 6, 6]}}}]}]})", "h.json");
  try {
    buildModel(scene);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'cube'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'nowhere' selects no vertices"), std::string::npos) << e.what();
  }
}

// nlohmann reports a number beyond a double's range apart from syntax errors (found by fuzzing).
TEST(SceneReader, ANumberTooLargeForADoubleIsAnError) {
  try {
    parseScene(R"({"version": 1, "time_step": 1e999})", "big.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "big.json: JSON number out of range: number overflow parsing '1e999'");
  }
}

// JSON allows a NUL in a key; the key reaches the message whole (it was once cut at the NUL and
// looked up as a shorter key that did not exist).
TEST(SceneReader, AKeyWithANulIsAnUnknownKey) {
  const std::string message = test::errorOf([] { parseScene(R"({"version": 1, "time_step\u0000x": 0.1, "bodies": []})", "nul.json"); });
  EXPECT_TRUE(message.starts_with("nul.json: /time_step\\u0000x: ")) << message;
}

// The fuzz test's way of reading scenes without touching the disk; its errors name the field too.
TEST(SceneReader, MeshFilesCanComeFromTheCaller) {
  const std::string json = R"({"version": 1, "bodies": [{"mesh": "meshes/bunny.obj", "tetgen": {"quality": 2},
    "materials": [{"model": "arap"}]}]})";
  std::filesystem::path asked;
  double quality = 0;
  const MeshLoader cube = [&](const std::filesystem::path& path, const TetgenOptions& options) {
    asked = path, quality = options.max_radius_edge_ratio;
    return makeBox(Vec3::Ones(), Eigen::Vector3i::Ones());
  };
  const Scene scene = parseScene(json, "/nowhere/s.json", {}, cube);
  EXPECT_EQ(asked, std::filesystem::path("/nowhere/meshes/bunny.obj"));
  EXPECT_EQ(quality, 2);
  EXPECT_EQ(scene.bodies[0].mesh.T.rows(), 5);
  const MeshLoader refuse = [](const std::filesystem::path& path, const TetgenOptions&) -> TetMesh { throw error(path.string(), ": no"); };
  try {
    parseScene(json, "/nowhere/s.json", {}, refuse);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "/nowhere/s.json: /bodies/0/mesh: /nowhere/meshes/bunny.obj: no");
  }
}

}  // namespace
}  // namespace qnsim
