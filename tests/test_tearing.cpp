// Tearing and cutting (core/model/removal.h, thesis Sec. 8.4): exactly the over-stretched or crossed
// elements go; g, grad g and Newton's Hessian are those of the remaining elements; tearing.matrix=keep
// never refactors and still descends, refactor swaps in A of the remaining elements; the surfaces follow;
// reset, save and load, and determinism.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <set>

#include "core/common/hash.h"
#include "core/model/removal.h"
#include "core/scene/catalog.h"
#include "qnsim/error.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

// A bar of 6 x 2 x 2 cells held at both ends and pulled apart from the start; its middle band (the two
// cells around x = 0) tears beyond about 10 % stretch, the rest never.
std::string pulledBarJson(const std::string& matrix) {
  return R"({"version": 1, "time_step": 0.02, "tearing": {"matrix": ")" + matrix + R"("},
    "bodies": [{"name": "bar", "shape": {"type": "box", "size": [0.6, 0.1, 0.1], "cells": [6, 2, 2]}, "density": 1000,
      "materials": [{"name": "bar", "model": "corotated", "mu": 2e4, "lambda": 8e4},
                    {"name": "band", "model": "corotated", "mu": 2e4, "lambda": 8e4, "tear_strain": 0.1, "tear_scatter": 0.3,
                     "select": {"box": {"min": [-0.11, -1, -1], "max": [0.11, 1, 1]}}}],
      "handles": [{"name": "left", "select": {"box": {"min": [-0.31, -1, -1], "max": [-0.29, 1, 1]}}, "stiffness": 1e5,
                   "motion": [{"type": "translate", "velocity": [-0.5, 0, 0]}]},
                  {"name": "right", "select": {"box": {"min": [0.29, -1, -1], "max": [0.31, 1, 1]}}, "stiffness": 1e5,
                   "motion": [{"type": "translate", "velocity": [0.5, 0, 0]}]}]}]})";
}

Scene inlineScene(const std::string& json) {
  Scene scene = parseScene(json, "inline.json");
  scene.settings.threads = 1;
  return scene;
}

// Steps until something tore (at most `frames`); the frames taken.
int stepUntilTorn(Simulation& sim, int frames) {
  for (int f = 1; f <= frames; ++f) {
    sim.step();
    if (sim.lastFrame().removed > 0) return f;
  }
  return frames;
}

// The same model with the removed elements taken out of its arrays: what g should be made of.
Model withoutRemoved(const Model& m) {
  Model out;
  out.rest = m.rest;
  out.mass = m.mass;
  out.attachments = m.attachments;
  for (const Region& r : m.regions) out.regions.push_back(r);
  for (int e = 0; e < m.tets.size(); ++e)
    if (!m.tets.removed[e]) {
      out.tets.vertices.push_back(m.tets.vertices[e]);
      out.tets.rest_inverse.push_back(m.tets.rest_inverse[e]);
      out.tets.volume.push_back(m.tets.volume[e]);
      out.tets.region.push_back(m.tets.region[e]);
      out.tets.removed.push_back(0);
    }
  for (int s = 0; s < m.springs.size(); ++s)
    if (!m.springs.removed[s]) {
      out.springs.vertices.push_back(m.springs.vertices[s]);
      out.springs.rest_length.push_back(m.springs.rest_length[s]);
      out.springs.region.push_back(m.springs.region[s]);
      out.springs.hinge.push_back({-1, -1});
      out.springs.removed.push_back(0);
    }
  return out;
}

// The tets over the documented limit 1 + tear_strain (1 + tear_scatter r), r = hashedUnit(1, e), by an
// SVD other than the one tearing uses.
std::set<int> overstretchedTets(const Model& m, const std::vector<char>& removed, const VecX& x) {
  std::set<int> out;
  for (int e = 0; e < m.tets.size(); ++e) {
    const Material& material = *m.regions[m.tets.region[e]].material;
    if (removed[e] || material.tearStrain() == 0) continue;
    const double limit = 1.0 + material.tearStrain() * (1.0 + material.tearScatter() * hashedUnit(1, e));
    if (Eigen::JacobiSVD<Mat3>(m.tets.deformationGradient(x, e)).singularValues()[0] > limit) out.insert(e);
  }
  return out;
}

std::set<int> asSet(const std::vector<int>& v) { return {v.begin(), v.end()}; }

TEST(Tearing, RemovesExactlyTheOverstretchedElements) {
  Simulation sim(inlineScene(pulledBarJson("keep")));
  int torn_total = 0;
  for (int f = 1; f <= 20; ++f) {
    const std::vector<char> before = sim.model().tets.removed;
    sim.step();
    std::set<int> torn;  // torn at the end of this frame
    for (int e = 0; e < sim.model().tets.size(); ++e)
      if (sim.model().tets.removed[e] && !before[e]) torn.insert(e);
    EXPECT_EQ(torn, overstretchedTets(sim.model(), before, sim.positions())) << "frame " << f;
    EXPECT_EQ(sim.lastFrame().torn, static_cast<int>(torn.size())) << "frame " << f;
    for (int e : torn) EXPECT_EQ(sim.model().regions[sim.model().tets.region[e]].name, "band");
    torn_total += static_cast<int>(torn.size());
  }
  EXPECT_GT(torn_total, 10) << "the bar did not tear";
  EXPECT_EQ(sim.lastFrame().removed, torn_total);
}

// Every third tet of a box and a cloth's springs (with the ones that go with them) removed: g, its
// gradient and the Hessian are those of a model without them, and the gradient matches finite differences.
TEST(Tearing, ObjectiveGradientAndHessianAreThoseOfTheRemainingElements) {
  for (const std::string& json : {test::boxSceneJson(R"({"model": "neo_hookean", "mu": 2e3, "lambda": 9e3})"), test::clothSceneJson()}) {
    BuiltModel built = test::buildInline(json);
    Model& model = built.model;
    ElementSet remove;
    for (int e = 0; e < model.tets.size(); e += 3) remove.tets.push_back(e);
    for (int s = 0; s < model.springs.size(); s += 7) remove.springs.push_back(s);
    ASSERT_GE(removeElements(model, remove), remove.size());
    std::mt19937 rng(4);
    const VecX x = test::perturbed(model.rest, 0.05, rng), y = test::perturbed(model.rest, 0.05, rng);
    const Model reference_model = withoutRemoved(model);
    Objective torn(model), reference(reference_model);
    torn.setInertia(y, 900.0);
    reference.setInertia(y, 900.0);
    VecX gradient, expected_gradient;
    const double g = torn.evaluate(x, &gradient), expected = reference.evaluate(x, &expected_gradient);
    EXPECT_NEAR(g, expected, 1e-12 * std::abs(expected));
    EXPECT_LE((gradient - expected_gradient).norm(), 1e-12 * expected_gradient.norm());
    EXPECT_LE((gradient - test::finiteDifferenceGradient(torn, x)).norm(), 1e-6 * gradient.norm());
    for (bool project : {false, true}) {
      const Eigen::MatrixXd H = torn.hessian(x, project), H_expected = reference.hessian(x, project);
      EXPECT_LE((H - H_expected).norm(), 1e-12 * H_expected.norm()) << "projected " << project;
    }
  }
}

TEST(Tearing, KeepNeverRefactorsAndEveryIterationDescends) {
  Simulation sim(inlineScene(pulledBarJson("keep")));
  for (int f = 1; f <= 20; ++f) {
    sim.step();
    const auto& its = sim.lastSolve().iterations;
    for (size_t k = 1; k < its.size(); ++k) EXPECT_LE(its[k].g, its[k - 1].g) << "frame " << f << " iteration " << k;
  }
  EXPECT_GT(sim.lastFrame().removed, 10);
  EXPECT_FALSE(sim.refactorPending());
  EXPECT_EQ(sim.lastFrame().factorizations, 1);
}

// A of the remaining elements, assembled afresh: M/h^2 + L.
Eigen::MatrixXd freshA(const Simulation& sim) {
  const double h = sim.settings().time_step;
  return Eigen::MatrixXd(SystemMatrix(withoutRemoved(sim.model()), 1.0 / (h * h)).matrix());
}

TEST(Tearing, RefactorSwapsInTheMatrixOfTheRemainingElements) {
  Simulation sim(inlineScene(pulledBarJson("refactor")));
  stepUntilTorn(sim, 30);
  ASSERT_GT(sim.lastFrame().removed, 0);
  EXPECT_TRUE(sim.refactorPending());
  sim.finishRefactor();
  SystemMatrix& system = *internals(sim).system;
  const Eigen::MatrixXd A = system.matrix();
  EXPECT_LE((A - freshA(sim)).norm(), 1e-12 * A.norm());
  // and the swapped-in factor solves with it
  std::mt19937 rng(2);
  const VecX b = test::perturbed(VecX::Zero(A.rows() * 3), 1.0, rng);
  VecX solution = b;
  system.solve(solution);
  EXPECT_LE((A * asRows(solution) - asRows(b)).norm(), 1e-10 * b.norm());
  for (int f = 0; f < 10; ++f) {
    sim.step();
    const auto& its = sim.lastSolve().iterations;
    for (size_t k = 1; k < its.size(); ++k) EXPECT_LE(its[k].g, its[k - 1].g);
  }
  EXPECT_GT(sim.lastFrame().factorizations, 1);
}

TEST(Tearing, ResetRestoresTheUntornModel) {
  for (const char* matrix : {"keep", "refactor"}) {
    Simulation sim(inlineScene(pulledBarJson(matrix))), fresh(inlineScene(pulledBarJson(matrix)));
    const int version = sim.topologyVersion();
    for (int f = 0; f < 20; ++f) sim.step();
    ASSERT_GT(sim.lastFrame().removed, 0);
    EXPECT_NE(sim.topologyVersion(), version);
    sim.apply(Reset{});
    sim.finishRefactor();
    EXPECT_EQ(removedCount(sim.model()), 0);
    EXPECT_EQ(sim.model().bodies[0].surface, fresh.model().bodies[0].surface);
    EXPECT_EQ(Eigen::MatrixXd(internals(sim).system->matrix()), Eigen::MatrixXd(internals(fresh).system->matrix())) << matrix;
    for (int f = 0; f < 20; ++f) {  // refactor: when a factor is swapped in depends on timing, unless waited for
      sim.step();
      fresh.step();
      sim.finishRefactor();
      fresh.finishRefactor();
    }
    EXPECT_EQ(sim.positions(), fresh.positions()) << matrix << ": the run after the reset is the run of a fresh simulation";
    EXPECT_EQ(sim.model().tets.removed, fresh.model().tets.removed);
  }
}

TEST(Tearing, SavedStateBringsBackItsRemovedElements) {
  Simulation sim(inlineScene(pulledBarJson("keep")));
  stepUntilTorn(sim, 30);
  const auto dir = test::scratchDir("tearing_state");
  writeState(dir / "torn.json", sim.state());
  const SimState saved = readState(dir / "torn.json");
  EXPECT_EQ(saved.removed.tets, removedElements(sim.model()).tets);
  const TriIndices saved_surface = sim.model().bodies[0].surface;
  for (int f = 0; f < 10; ++f) sim.step();
  const VecX expected = sim.positions();
  ASSERT_GT(sim.lastFrame().removed, saved.removed.size()) << "more tore after the save";

  sim.apply(LoadState{saved});  // brings back what tore after the save
  EXPECT_EQ(removedElements(sim.model()).tets, saved.removed.tets);
  EXPECT_EQ(sim.model().bodies[0].surface, saved_surface);
  for (int f = 0; f < 10; ++f) sim.step();
  EXPECT_EQ(sim.positions(), expected);

  Simulation untorn(inlineScene(pulledBarJson("keep")));
  untorn.apply(LoadState{saved});
  EXPECT_EQ(untorn.model().bodies[0].surface, saved_surface);

  SimState bad = saved;
  bad.removed.tets.push_back(untorn.model().tets.size());
  try {
    untorn.apply(LoadState{bad});
    FAIL() << "a removed tet out of range was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("removed tet"), std::string::npos) << e.what();
  }
  EXPECT_EQ(removedElements(untorn.model()).tets, saved.removed.tets) << "a rejected state changes nothing";
  std::ofstream(dir / "unsorted.json") << R"({"format": "qnsim-state", "frame": 1, "time": 0.1, "x": [0, 0, 0], "v": [0, 0, 0],
    "removed_tets": [3, 2]})";
  EXPECT_THROW(readState(dir / "unsorted.json"), Error);
  std::ofstream(dir / "old.json") << R"({"format": "qnsim-state", "frame": 1, "time": 0.1, "x": [0, 0, 0], "v": [0, 0, 0]})";
  EXPECT_EQ(readState(dir / "old.json").removed.size(), 0) << "a state from before tearing removes nothing";
}

// Faces as sorted vertex triples.
std::set<std::array<int, 3>> faceSet(const TriIndices& F) {
  std::set<std::array<int, 3>> out;
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    std::array<int, 3> face = {F(f, 0), F(f, 1), F(f, 2)};
    std::sort(face.begin(), face.end());
    out.insert(face);
  }
  return out;
}

Vec3 tetCentroid(const Model& m, int e) {
  Vec3 c = Vec3::Zero();
  for (int a = 0; a < 4; ++a) c += 0.25 * vertex(m.rest, m.tets.vertices[e][a]);
  return c;
}

// The box's cube 0 is split into a central tet (tet 0: no boundary face) and four corner tets; tet 1
// holds the box's corner vertex 0 and has three faces on the boundary.
// The torn bar under the barrier with self-contact: tearing rebuilds the surfaces within a frame, and
// the frame's barrier, which held the old ones (and crashed on them when it measured the frame), holds
// the new ones; the pieces never cross.
TEST(Tearing, TheBarrierHoldsTheSurfacesATearMakes) {
  Scene scene = loadScene(catalogScenePath("bar_tearing"));
  applyOverride(scene, "contact.model=barrier");
  applyOverride(scene, "self_collision.enabled=true");
  Simulation sim(scene);
  sim.setIntersectionCheck(true);
  int torn = 0;
  for (int f = 0; f < 24; ++f) {
    sim.step();
    ASSERT_FALSE(sim.lastFrame().rolled_back) << "frame " << sim.frame();
    EXPECT_EQ(sim.lastFrame().intersections, 0) << "frame " << sim.frame();
    torn += sim.lastFrame().torn;
  }
  EXPECT_GT(torn, 0);
}

TEST(RemovalSurface, AnInteriorTetOpensFourFacesFacingIntoIt) {
  BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "corotated"})"));
  Model& model = built.model;
  const int central = test::modelTet(model.bodies[0], 0);  // the box mesh's first cell's inner tet
  const auto before = faceSet(model.bodies[0].surface);
  ASSERT_EQ(removeElements(model, {{central}, {}}), 1);
  const TriIndices& F = model.bodies[0].surface;
  ASSERT_EQ(F.rows(), static_cast<Eigen::Index>(before.size()) + 4);
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    std::array<int, 3> face = {F(f, 0), F(f, 1), F(f, 2)};
    std::sort(face.begin(), face.end());
    if (before.count(face)) continue;
    for (int c : face)
      EXPECT_TRUE(std::count(model.tets.vertices[central].data(), model.tets.vertices[central].data() + 4, c)) << "not a face of the tet";
    const Vec3 a = vertex(model.rest, F(f, 0)), b = vertex(model.rest, F(f, 1)), c = vertex(model.rest, F(f, 2));
    EXPECT_GT((b - a).cross(c - a).dot(tetCentroid(model, central) - a), 0) << "a new face points into the material";
  }
}

TEST(RemovalSurface, ABoundaryTetTakesItsFacesAndOpensTheOneItShared) {
  BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "corotated"})"));
  Model& model = built.model;
  const int central = test::modelTet(model.bodies[0], 0), corner = test::modelTet(model.bodies[0], 1);  // the first cell's
  const auto before = faceSet(model.bodies[0].surface);
  ASSERT_EQ(removeElements(model, {{corner}, {}}), 1);
  const auto after = faceSet(model.bodies[0].surface);
  EXPECT_EQ(after.size(), before.size() - 3 + 1);
  for (const auto& face : after)
    EXPECT_TRUE(std::find(face.begin(), face.end(), 0) == face.end()) << "vertex 0 lost its only tet and must not be drawn";
  std::set<std::array<int, 3>> gone, opened;
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::inserter(gone, gone.end()));
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::inserter(opened, opened.end()));
  EXPECT_EQ(gone.size(), 3u);
  ASSERT_EQ(opened.size(), 1u);
  EXPECT_TRUE(std::all_of(opened.begin()->begin(), opened.begin()->end(), [&](int v) {
    return std::count(model.tets.vertices[central].data(), model.tets.vertices[central].data() + 4, v) > 0;
  })) << "the opened face is the central tet's";
}

// The cloth grid: vertex (i, j) = 6 i + j. The spring between (2, 2) and (3, 2) is an edge of two
// triangles and the hinge of two bending springs.
TEST(RemovalSurface, ATornClothSpringDropsItsTwoTrianglesAndTheBendsOverIt) {
  BuiltModel built = test::buildInline(test::clothSceneJson());
  Model& model = built.model;
  const int a = 6 * 2 + 2, b = 6 * 3 + 2;
  int spring = -1, hinged = 0;
  for (int s = 0; s < model.springs.size(); ++s) {
    const Eigen::Vector2i& v = model.springs.vertices[s];
    if (std::min(v[0], v[1]) == a && std::max(v[0], v[1]) == b && model.springs.hinge[s][0] < 0) spring = s;
  }
  ASSERT_GE(spring, 0);
  for (const Eigen::Vector2i& h : model.springs.hinge) hinged += h[0] == spring || h[1] == spring;
  EXPECT_EQ(hinged, 2);
  const Eigen::Index triangles = model.bodies[0].surface.rows();
  EXPECT_EQ(removeElements(model, {{}, {spring}}), 1 + hinged);
  EXPECT_EQ(model.bodies[0].surface.rows(), triangles - 2);
  EXPECT_EQ(removeElements(model, {{}, {spring}}), 0) << "removed once";
}

// Whether the point p of the plane x = c lies in the wedge from `apex` between the directions to `from`
// and `to` (all in that plane), by angles in its (y, z) coordinates: an independent check of the cut.
bool inWedge(const Vec3& apex, const Vec3& from, const Vec3& to, const Vec3& p) {
  const auto angle = [&](const Vec3& q) { return std::atan2(q.z() - apex.z(), -(q.y() - apex.y())); };
  return angle(p) >= std::min(angle(from), angle(to)) && angle(p) <= std::max(angle(from), angle(to));
}

TEST(Cut, RemovesTheTetsCrossedByTheWedgeAndNothingElse) {
  BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "corotated"})"));
  Model& model = built.model;
  const double c = 0.1;  // between the vertex planes x = 0 and x = 0.5
  const Vec3 apex(c, 2, 0), from(c, 0, -0.35), to(c, 0, 0.05);
  std::set<int> expected;
  for (int e = 0; e < model.tets.size(); ++e)
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) {
        const Vec3 p = vertex(model.rest, model.tets.vertices[e][i]), q = vertex(model.rest, model.tets.vertices[e][j]);
        if ((p.x() - c) * (q.x() - c) >= 0) continue;
        if (inWedge(apex, from, to, p + (c - p.x()) / (q.x() - p.x()) * (q - p))) expected.insert(e);
      }
  ASSERT_FALSE(expected.empty());
  ASSERT_LT(expected.size(), 20u) << "the wedge should cut part of the box only";
  const ElementSet crossed = elementsCrossedBy(model, model.rest, {apex, from - apex, to - apex});
  EXPECT_EQ(asSet(crossed.tets), expected);
  EXPECT_EQ(removeElements(model, crossed), static_cast<int>(expected.size()));
  EXPECT_TRUE(elementsCrossedBy(model, model.rest, {apex, to - apex, to - apex}).tets.empty()) << "a line of no width cuts nothing";
}

TEST(Cut, ACutAcrossTheClothSeparatesItsHalves) {
  Simulation sim(inlineScene(test::clothSceneJson()));
  const double c = 0.05;  // the cloth lies in y = 0, x and z in [-0.5, 0.5]
  const Vec3 apex(c, 1, 0);
  const int removed = sim.apply(Cut{apex, Vec3(c, 0, -2) - apex, Vec3(c, 0, 2) - apex}).removed;
  EXPECT_GT(removed, 0);
  EXPECT_EQ(sim.topologyVersion(), 1);
  const Model& m = sim.model();
  for (int s = 0; s < m.springs.size(); ++s) {
    if (m.springs.removed[s]) continue;
    const double x0 = vertex(m.rest, m.springs.vertices[s][0]).x(), x1 = vertex(m.rest, m.springs.vertices[s][1]).x();
    EXPECT_GT((x0 - c) * (x1 - c), 0) << "spring " << s << " still joins the halves";
  }
  const TriIndices& F = m.bodies[0].surface;
  EXPECT_GT(F.rows(), 0);
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    const double side = vertex(m.rest, F(f, 0)).x() - c;
    for (int k = 1; k < 3; ++k) EXPECT_GT(side * (vertex(m.rest, F(f, k)).x() - c), 0) << "triangle " << f << " spans the cut";
  }
  EXPECT_EQ(sim.apply(Cut{apex, Vec3(c, 0, -2) - apex, Vec3(c, 0, 2) - apex}).removed, 0) << "nothing is left to cut there";
  EXPECT_EQ(sim.lastFrame().factorizations, 1) << "keep (the default) leaves A as it is";
}

TEST(Tearing, FlagSceneTearsWithinSecondsDeterministicallyWithoutRefactoring) {
  std::vector<VecX> positions;
  std::vector<std::vector<char>> removed;
  for (const char* threads : {"1", "1", "2"}) {
    Scene scene = loadScene(catalogScenePath("flag_tearing"));
    applyOverride(scene, "threads", threads);
    Simulation sim(scene);
    for (int f = 0; f < 60; ++f) {
      sim.step();
      const auto& its = sim.lastSolve().iterations;
      for (size_t k = 1; k < its.size(); ++k) ASSERT_LE(its[k].g, its[k - 1].g) << "frame " << f + 1;
    }
    EXPECT_GT(sim.lastFrame().removed, 0) << "the flag did not tear in 2 s";
    EXPECT_EQ(sim.lastFrame().factorizations, 1);
    positions.push_back(sim.positions());
    removed.push_back(sim.model().springs.removed);
  }
  EXPECT_TRUE(positions[0] == positions[1] && removed[0] == removed[1]) << "two single-threaded runs differ";
  EXPECT_TRUE(positions[0] == positions[2] && removed[0] == removed[2]) << "1 and 2 threads differ";
}

TEST(TearingScene, MaterialsTakeSelectedElementsAndTearingValuesAreChecked) {
  const auto body = [](const std::string& extra) {
    return R"({"version": 1, "bodies": [{"shape": {"type": "box", "size": [1, 1, 1], "cells": [2, 1, 1]},
      "materials": [{"name": "soft", "model": "corotated"}, {"name": "right", "model": "corotated", "tear_strain": 0.3)" +
           extra + "}]}]}";
  };
  const BuiltModel built = test::buildInline(body(R"(, "select": {"box": {"min": [0, -1, -1], "max": [1, 1, 1]}})"));
  int right = 0;
  for (int e = 0; e < built.model.tets.size(); ++e) {
    const bool inside = tetCentroid(built.model, e).x() > 0;
    EXPECT_EQ(built.model.tets.region[e], inside ? 1 : 0) << "tet " << e;
    right += inside;
  }
  EXPECT_EQ(right, 5);
  EXPECT_EQ(built.model.regions[1].material->tearStrain(), 0.3);
  try {
    test::buildInline(body(R"(, "select": {"box": {"min": [5, 5, 5], "max": [6, 6, 6]}})"));
    FAIL() << "a material that selects nothing was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'right' selects no element"), std::string::npos) << e.what();
  }
  try {
    parseScene(R"({"version": 1, "bodies": [{"shape": {"type": "box", "size": [1, 1, 1], "cells": [1, 1, 1]},
      "materials": [{"model": "corotated", "tear_strain": -0.1}]}]})",
               "negative.json");
    FAIL() << "a negative tear_strain was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("materials/0/tear_strain"), std::string::npos) << e.what();
  }
  Scene scene = parseScene(test::clothSceneJson(), "inline.json");
  applyOverride(scene, "tearing.matrix", "refactor");
  EXPECT_EQ(scene.settings.removal_matrix, RemovalMatrix::Refactor);
  EXPECT_THROW(applyOverride(scene, "tearing.matrix", "sometimes"), Error);
}

}  // namespace
}  // namespace qnsim
