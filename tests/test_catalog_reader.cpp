// The scene format's motion, perturbation and collider features (docs/scene_format.md): key lists,
// twist, moving colliders, seeded initial states, and strict errors that name the file and JSON path.
#include <gtest/gtest.h>

#include "core/collision/collider.h"
#include "core/sim/build_model.h"
#include "qnsim/error.h"
#include "qnsim/simulation.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

const std::string kBox = R"("shape": {"type": "box", "size": [1, 1, 1], "cells": [2, 2, 2]}, "materials": [{"model": "corotated"}])";

Scene sceneWith(const std::string& body_extra, const std::string& top_extra = "") {
  return parseScene(R"({"version": 1, "bodies": [{)" + kBox + body_extra + "}]" + top_extra + "}", "features.json");
}

// Expects parsing to fail with a message naming the file, `path` and `words`.
void expectSceneError(const std::string& body_extra, const std::string& top_extra, const std::string& path, const std::string& words) {
  try {
    sceneWith(body_extra, top_extra);
    ADD_FAILURE() << "expected an error at " << path;
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("features.json: " + path + ":"), std::string::npos) << what;
    EXPECT_NE(what.find(words), std::string::npos) << what;
  }
}

Mat3 rotation(const Vec3& axis, double degrees) { return Eigen::AngleAxisd(degrees * M_PI / 180, axis.normalized()).toRotationMatrix(); }

TEST(SceneMotion, KeyListsInterpolateLinearlyOrSmoothlyAndHoldAtTheEnds) {
  const Scene scene = sceneWith(R"(, "handles": [{"select": {"all": true}, "motion": [
      {"type": "keys", "keys": [{"time": 1, "translate": [0, 0, 0]}, {"time": 2, "translate": [1, 0, 0], "rotate": {"axis": [0, 0, 1], "degrees": 90}}]},
      {"type": "keys", "interpolation": "smooth", "keys": [{"time": 0}, {"time": 4, "translate": [0, 2, 0]}]}]}])");
  const auto& motion = scene.bodies[0].handles[0].motion;
  ASSERT_EQ(motion.size(), 2u);
  const RigidTransform before = motionAt({motion[0]}, 0.5), middle = motionAt({motion[0]}, 1.5), after = motionAt({motion[0]}, 9);
  EXPECT_EQ(before.T, Vec3::Zero());
  EXPECT_LE((middle.T - Vec3(0.5, 0, 0)).norm(), 1e-12);
  EXPECT_LE((middle.R - rotation(Vec3::UnitZ(), 45)).norm(), 1e-12);
  EXPECT_LE((after.R - rotation(Vec3::UnitZ(), 90)).norm(), 1e-12);
  // Angles interpolate as written: keys at 0 and 270 degrees turn the long way, through 135.
  const Scene turn = sceneWith(R"(, "handles": [{"select": {"all": true}, "motion": [{"type": "keys", "keys": [
      {"time": 0}, {"time": 1, "rotate": {"axis": [0, 1, 0], "degrees": 270}}]}]}])");
  EXPECT_LE((motionAt(turn.bodies[0].handles[0].motion, 0.5).R - rotation(Vec3::UnitY(), 135)).norm(), 1e-12);
  // Smooth: half way at the middle, a quarter of the way is 5/32 of the distance (3s^2 - 2s^3).
  EXPECT_NEAR(motionAt({motion[1]}, 2).T.y(), 1.0, 1e-12);
  EXPECT_NEAR(motionAt({motion[1]}, 1).T.y(), 2.0 * 5.0 / 32.0, 1e-12);
  // Both together: rotations compose in list order, translations add.
  const RigidTransform both = motionAt(motion, 1.5);
  EXPECT_LE((both.T - Vec3(0.5, motionAt({motion[1]}, 1.5).T.y(), 0)).norm(), 1e-12);
}

TEST(SceneMotion, TwistIsARotationAboutTheHandlesCentre) {
  const Scene scene = sceneWith(R"(, "handles": [{"select": {"box": {"min": [0.49, -1, -1], "max": [0.51, 1, 1]}},
      "motion": [{"type": "twist", "axis": [1, 0, 0], "degrees_per_second": 90, "end": 1}]}])");
  const BuiltModel built = buildModel(scene);
  const HandleState& h = built.handles[0];
  EXPECT_LE((h.center - Vec3(0.5, 0, 0)).norm(), 1e-12);
  Mat3 R;
  Vec3 T;
  handleTransform(h.desc, 3.0, R, T);
  EXPECT_LE((R - rotation(Vec3::UnitX(), 90)).norm(), 1e-12);
  EXPECT_EQ(T, Vec3::Zero());
}

TEST(SceneMotion, MotionVelocityIsTheFramesDisplacement) {
  MotionSegment spin;
  spin.type = MotionSegment::Type::Rotate;
  spin.vector = Vec3::UnitY();
  spin.rate = 180;
  MotionSegment move;
  move.vector = Vec3(0.3, 0, 0);
  Vec3 linear, angular;
  motionVelocity({spin, move}, 1.0, 0.1, linear, angular);
  EXPECT_LE((linear - Vec3(0.3, 0, 0)).norm(), 1e-12);
  EXPECT_LE((angular - Vec3(0, M_PI, 0)).norm(), 1e-9);
}

TEST(SceneColliders, MoveAlongTheirKeyframesWithTheirVelocity) {
  const Scene scene = sceneWith("", R"(, "colliders": [{"type": "sphere", "center": [0, 2, 0], "radius": 0.5,
      "motion": [{"type": "keys", "keys": [{"time": 0}, {"time": 1, "translate": [0, -1, 0]}]}]}])");
  const Collider posed = posedAt(scene.colliders[0], 0.5, 0.1);
  EXPECT_LE((posed.position - Vec3(0, 1.5, 0)).norm(), 1e-12);
  EXPECT_LE((posed.velocity - Vec3(0, -1, 0)).norm(), 1e-12);
  EXPECT_LE((pointVelocity(posed, Vec3(0.5, 1.5, 0)) - Vec3(0, -1, 0)).norm(), 1e-12);
  Simulation sim(scene);
  for (int f = 0; f < 15; ++f) sim.step();
  EXPECT_LE((sim.colliders()[0].position - Vec3(0, 1.5, 0)).norm(), 1e-12) << "half way after 0.5 s";
  for (int f = 0; f < 30; ++f) sim.step();
  EXPECT_LE((sim.colliders()[0].position - Vec3(0, 1, 0)).norm(), 1e-12) << "held at the last key";
  EXPECT_EQ(scene.colliders[0].position, Vec3(0, 2, 0)) << "the scene keeps the rest pose";
}

TEST(ScenePerturb, SeededAndDeterministic) {
  const Scene a = sceneWith(R"(, "perturb": {"type": "random", "seed": 7, "amplitude": 0.1})");
  const BuiltModel one = buildModel(a), two = buildModel(a);
  EXPECT_TRUE(one.initial == two.initial);
  const VecX d = one.initial - one.model.rest;
  EXPECT_LE(d.cwiseAbs().maxCoeff(), 0.1);
  EXPECT_GT(d.cwiseAbs().maxCoeff(), 0.08);
  const BuiltModel other = buildModel(sceneWith(R"(, "perturb": {"type": "random", "seed": 8, "amplitude": 0.1})"));
  EXPECT_FALSE(other.initial == one.initial);
  // Pinned numbers: the generator is the standard's mt19937_64, the same everywhere.
  EXPECT_NEAR(d[0], 0.050877060830571599, 1e-15);
  Simulation sim(a);
  EXPECT_TRUE(sim.positions() == one.initial);
}

TEST(ScenePerturb, UniformBoxFillsTheRestBoundingBox) {
  const BuiltModel built = buildModel(sceneWith(R"(, "perturb": {"type": "uniform_box", "seed": 3})"));
  const auto rows = asRows(built.initial), rest = asRows(built.model.rest);
  EXPECT_TRUE((rows.colwise().minCoeff().array() >= rest.colwise().minCoeff().array()).all());
  EXPECT_TRUE((rows.colwise().maxCoeff().array() <= rest.colwise().maxCoeff().array()).all());
  int inverted = 0;
  for (int e = 0; e < built.model.tets.size(); ++e) inverted += built.model.tets.deformedEdges(built.initial, e).determinant() < 0;
  EXPECT_GT(inverted, built.model.tets.size() / 4);
}

TEST(SceneErrors, NewKeysAreCheckedWithTheirJsonPath) {
  expectSceneError(R"(, "perturb": {"type": "wobble"})", "", "/bodies/0/perturb/type", "known: random, uniform_box");
  expectSceneError(R"(, "perturb": {"type": "random", "seed": 1})", "", "/bodies/0/perturb", "missing required field 'amplitude'");
  expectSceneError(R"(, "perturb": {"type": "random", "amplitude": -1})", "", "/bodies/0/perturb/amplitude", "[0, 1e+12]");
  expectSceneError(R"(, "perturb": {"type": "uniform_box", "seed": 1.5})", "", "/bodies/0/perturb/seed", "whole number");
  expectSceneError(R"(, "perturb": {"type": "uniform_box", "amplitude": 1})", "", "/bodies/0/perturb/amplitude", "unknown field");
  const std::string handle = R"(, "handles": [{"select": {"all": true}, "motion": [)";
  expectSceneError(handle + R"({"type": "keys", "keys": []}]}])", "", "/bodies/0/handles/0/motion/0/keys", "at least one key");
  expectSceneError(handle + R"({"type": "keys", "keys": [{"time": 1}, {"time": 1}]}]}])", "", "/bodies/0/handles/0/motion/0/keys/1/time",
                   "must increase");
  expectSceneError(handle + R"({"type": "keys", "keys": [{"time": 0, "rotate": {"axis": [0, 1, 0], "degree": 20}}]}]}])", "",
                   "/bodies/0/handles/0/motion/0/keys/0/rotate/degree", "unknown field");
  expectSceneError(handle + R"({"type": "keys", "interpolation": "cubic", "keys": [{"time": 0}]}]}])", "",
                   "/bodies/0/handles/0/motion/0/interpolation", "\"linear\" or \"smooth\"");
  expectSceneError(handle + R"({"type": "keys", "start": 1, "keys": [{"time": 0}]}]}])", "", "/bodies/0/handles/0/motion/0/start",
                   "unknown field");
  expectSceneError(handle + R"({"type": "keys", "keys": [{"time": 0, "translate": [0, 1]}]}]}])", "",
                   "/bodies/0/handles/0/motion/0/keys/0/translate", "3 numbers");
  expectSceneError(handle + R"({"type": "twist", "axis": [0, 0, 0], "degrees_per_second": 1}]}])", "", "/bodies/0/handles/0/motion/0/axis",
                   "must not be zero");
  expectSceneError("", R"(, "colliders": [{"type": "sphere", "radius": 1, "half_extents": [1, 1, 1]}])", "/colliders/0/half_extents",
                   "unknown field");
  expectSceneError("", R"(, "colliders": [{"type": "plane", "motion": [{"type": "spin"}]}])", "/colliders/0/motion/0/type",
                   "known: translate, rotate, twist, shake, keys");
  expectSceneError("", R"(, "contact_friction": 20)", "/contact_friction", "[0, 10]");
}

}  // namespace
}  // namespace qnsim
