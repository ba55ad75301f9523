// Claims about Projective Dynamics and the quasi-Newton reading of it (paper Sec. 4):
// C1 x - A^-1 grad g(x) is exactly one local/global step; C2 the full step always satisfies Armijo for
// PD energies; C4 A is SPD, factored once, and -A^-1 grad g descends; C5 L-BFGS with m = 0 equals the
// plain method; C6 every accepted step decreases g by the Armijo condition.
#include <gtest/gtest.h>

#include <fstream>

#include "core/math/svd3.h"
#include "core/objective/objective.h"
#include "core/solver/system_matrix.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

// A scene with only PD energies: ARAP tets, springs and attachments.
std::string pdSceneJson() {
  return R"({"version": 1, "bodies": [
    {"name": "box", "shape": {"type": "box", "size": [1, 0.5, 0.5], "cells": [4, 2, 2]}, "density": 1000,
     "materials": [{"model": "arap", "mu": 2e4}], "handles": [{"select": {"indices": [0, 1, 2]}, "stiffness": 1e4}]},
    {"name": "cloth", "shape": {"type": "cloth", "size": [1, 1], "vertices": [7, 7]}, "translate": [0, 1, 0], "density": 0.3,
     "materials": [{"region": "stretch", "model": "spring", "k": 500}, {"region": "bend", "model": "spring", "k": 30}],
     "handles": [{"select": {"indices": [0, 42]}, "stiffness": 1e3}]}]})";
}

// J p(x) + w M y: the right-hand side of the global step (Eq. 7), with the local step's projections:
// p = R (polar rotation of F) for ARAP tets, the rest-length direction for springs, the target for
// attachments (paper Sec. 3; thesis eq. 5.9 and 6.7).
VecX localGlobalRhs(const Model& model, const Objective& objective, const VecX& x) {
  VecX rhs = VecX::Zero(x.size());
  for (int v = 0; v < model.vertexCount(); ++v) vertex(rhs, v) = objective.inertiaWeight() * model.mass[v] * vertex(objective.inertiaTarget(), v);
  for (int e = 0; e < model.tets.size(); ++e) {
    const auto& t = model.tets.vertices[e];
    const Svd3 svd = svd3(model.tets.deformationGradient(x, e));
    const Mat3 R = svd.U * svd.V.transpose();
    const double w = model.tets.volume[e] * model.regions[model.tets.region[e]].stiffness;
    Eigen::Matrix<double, 4, 3> g;
    g.bottomRows<3>() = model.tets.rest_inverse[e];
    g.row(0) = -g.bottomRows<3>().colwise().sum();
    for (int a = 0; a < 4; ++a) vertex(rhs, t[a]) += w * R * g.row(a).transpose();
  }
  for (int s = 0; s < model.springs.size(); ++s) {
    const auto& v = model.springs.vertices[s];
    const Vec3 d = vertex(x, v[0]) - vertex(x, v[1]);
    const Vec3 p = model.springs.rest_length[s] * d.normalized();
    const double k = model.regions[model.springs.region[s]].stiffness;
    vertex(rhs, v[0]) += k * p;
    vertex(rhs, v[1]) -= k * p;
  }
  for (const Attachment& a : model.attachments) vertex(rhs, a.vertex) += a.stiffness * a.target;
  return rhs;
}

struct PdFixture {
  PdFixture() : built(test::buildInline(pdSceneJson())), objective(built.model), system(built.model, 900.0) {
    std::mt19937 rng(11);
    objective.setInertia(test::perturbed(built.model.rest, 0.05, rng), 900.0);
  }
  BuiltModel built;
  Objective objective;
  SystemMatrix system;
};

TEST(ProjectiveDynamics, ClaimC1QuasiNewtonStepIsOneLocalGlobalIteration) {
  PdFixture f;
  std::mt19937 rng(12);
  for (int trial = 0; trial < 20; ++trial) {
    const VecX x = test::perturbed(f.built.model.rest, 0.2, rng);
    VecX d;
    f.objective.evaluate(x, &d);
    f.system.solve(d);
    const VecX quasi_newton = x - d;
    VecX global = localGlobalRhs(f.built.model, f.objective, x);
    f.system.solve(global);
    EXPECT_LE((quasi_newton - global).norm(), 1e-10 * global.norm());
  }
}

TEST(ProjectiveDynamics, ClaimC2FullStepAlwaysSatisfiesArmijo) {
  PdFixture f;
  std::mt19937 rng(13);
  const SparseMatrix& A = f.system.matrix();
  for (int trial = 0; trial < 1000; ++trial) {
    const VecX x = test::perturbed(f.built.model.rest, 0.3, rng);
    VecX gradient;
    const double g = f.objective.evaluate(x, &gradient);
    VecX d = -gradient;
    f.system.solve(d);
    const double g_new = f.objective.evaluate(x + d, nullptr);
    ASSERT_LE(g_new, g + 0.3 * gradient.dot(d));  // gamma = 0.3, alpha = 1
    // The sharper bound of the derivation: g(x) - g(x + d) >= 1/2 <d, A d>, per coordinate column.
    const auto D = asRows(d);
    double dAd = 0;
    for (int c = 0; c < 3; ++c) dAd += D.col(c).dot(A * D.col(c));
    ASSERT_GE(g - g_new, 0.5 * dAd - 1e-12 * std::abs(g));
  }
}

TEST(ProjectiveDynamics, ClaimC4SystemIsSpdAndPlainDirectionDescends) {
  PdFixture f;
  const Eigen::MatrixXd A(f.system.matrix());
  EXPECT_LE((A - A.transpose()).norm(), 1e-12 * A.norm());
  EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(A).info(), Eigen::Success);
  std::mt19937 rng(14);
  const std::string neo = test::boxSceneJson(R"({"model": "neo_hookean", "mu": 2e4, "lambda": 8e4})");
  BuiltModel built = test::buildInline(neo);
  Objective objective(built.model);
  SystemMatrix system(built.model, 900.0);
  for (int trial = 0; trial < 200; ++trial) {
    const VecX x = test::perturbed(built.model.rest, 0.3, rng);
    VecX gradient;
    objective.evaluate(x, &gradient);
    VecX d = -gradient;
    system.solve(d);
    EXPECT_LT(gradient.dot(d), 0);
  }
}

std::string pdScenePath() {
  const auto path = test::scratchDir("pd") / "pd.json";
  std::ofstream(path) << pdSceneJson();
  return path;
}

TEST(ProjectiveDynamics, ClaimC5LbfgsWithEmptyWindowEqualsPlainMethod) {
  Scene qn = loadScene(pdScenePath()), pd = qn;
  applyOverride(qn, "solver.method", "qn");
  applyOverride(qn, "solver.lbfgs_window", "0");
  applyOverride(pd, "solver.method", "pd");
  Simulation a(qn), b(pd);
  for (int frame = 0; frame < 20; ++frame) {
    a.step();
    b.step();
  }
  EXPECT_LE((a.positions() - b.positions()).norm(), 1e-12 * a.positions().norm());
}

TEST(ProjectiveDynamics, ClaimC4C6OneFactorizationAndMonotoneDecreaseOverRuns) {
  for (const char* method : {"qn", "pd", "gd"}) {
    Scene scene = loadScene(pdScenePath());
    applyOverride(scene, "solver.method", method);
    Simulation sim(scene);
    for (int frame = 0; frame < 30; ++frame) {
      sim.step();
      const auto& its = sim.lastSolve().iterations;
      for (size_t k = 1; k < its.size(); ++k) ASSERT_LE(its[k].g, its[k - 1].g + 1e-12 * std::abs(its[k - 1].g)) << method << " frame " << frame;
    }
    EXPECT_EQ(sim.lastFrame().factorizations, 1) << method;
  }
}

}  // namespace
}  // namespace qnsim
