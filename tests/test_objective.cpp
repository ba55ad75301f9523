// The objective g (Eq. 3): gradient and Hessian against finite differences for every material and
// element type (inverted elements included), PSD projection, and no ghost forces (claim C30).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "core/common/parallel.h"
#include "core/objective/objective.h"
#include "core/objective/wind.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

const std::vector<std::string> kMaterials = {
    R"({"model": "corotated", "mu": 3e3, "lambda": 7e3})",
    R"({"model": "neo_hookean", "mu": 2e3, "lambda": 9e3})",
    R"({"model": "stvk", "mu": 2e3, "lambda": 3e3})",
    R"({"model": "mooney_rivlin", "mu10": 1e3, "mu01": 5e2, "lambda": 4e3})",
    R"({"model": "polynomial", "mu2": 5e2, "mu4": 3e3, "mu6": 1e3})",
    R"({"model": "spline", "preset": "A", "mu": 2e3, "lambda": 5e3})",
    R"({"model": "spline", "preset": "B", "mu": 2e3, "lambda": 5e3})",
    R"({"model": "arap", "mu": 3e3})",
    R"({"model": "pd_strain_limit", "arap_weight": 1e3, "limit_weight": 5e3, "sigma_min": 0.9, "sigma_max": 1.1})",
    R"({"model": "corotated", "mu": 3e3, "lambda": 7e3, "fiber": {"direction": [1, 1, 0], "kappa": 5e3}})",
};

// An objective with every kind of term: inertia, elements, attachments, a contact, a drag and wind.
struct Fixture {
  explicit Fixture(const std::string& json) : built(test::buildInline(json)), objective(built.model) {
    std::mt19937 rng(5);
    objective.setInertia(test::perturbed(built.model.rest, 0.05, rng), 900.0);
    objective.contacts.push_back({3, Vec3(0, 0.2, 0), Vec3(0.3, 1, 0.1).normalized(), 2e4});  // vertex 3 penetrates
    objective.drags.push_back({5, Vec3(0.2, 0.3, 0.1), 5e3});
    const WindSettings wind{Vec3(3, -1, 2), 40.0, 0.5, 0.7, 3};
    makeWindTerms(built.model, test::perturbed(built.model.rest, 0.05, rng), wind, 1.0 / 30.0, 0.4, objective.winds);
  }
  BuiltModel built;
  Objective objective;
};

int invertedTets(const Model& model, const VecX& x) {
  int count = 0;
  for (int e = 0; e < model.tets.size(); ++e) count += model.tets.deformedEdges(x, e).determinant() < 0;
  return count;
}

TEST(Objective, GradientMatchesFiniteDifferencesForEveryMaterial) {
  std::mt19937 rng(1);
  for (const std::string& material : kMaterials) {
    Fixture f(test::boxSceneJson(material));
    for (double amplitude : {0.05, 0.3}) {  // mild, and large enough to invert tets
      const VecX x = test::perturbed(f.built.model.rest, amplitude, rng);
      if (amplitude > 0.2) {
        EXPECT_GT(invertedTets(f.built.model, x), 0) << material;
      }
      VecX gradient;
      f.objective.evaluate(x, &gradient);
      const VecX fd = test::finiteDifferenceGradient(f.objective, x);
      EXPECT_LE((gradient - fd).norm(), 1e-6 * gradient.norm()) << material << " amplitude " << amplitude;
    }
  }
}

// Other integrators put c E(s x + o) into g (core/sim/integrator.h): gradient and Hessian follow.
TEST(Objective, TransformedEnergyGradientAndHessianMatchFiniteDifferences) {
  std::mt19937 rng(8);
  for (const std::string& material : {kMaterials[1], kMaterials[4], std::string("cloth")}) {
    Fixture f(material == "cloth" ? test::clothSceneJson() : test::boxSceneJson(material));
    f.objective.setEnergyTransform(4.0 / 9.0, 0.5, test::perturbed(0.5 * f.built.model.rest, 0.02, rng));
    const VecX x = test::perturbed(f.built.model.rest, 0.1, rng), v = test::perturbed(VecX::Zero(x.size()), 1.0, rng);
    VecX gradient, gp, gm;
    f.objective.evaluate(x, &gradient);
    EXPECT_LE((gradient - test::finiteDifferenceGradient(f.objective, x)).norm(), 1e-6 * gradient.norm()) << material;
    const VecX exact = f.objective.hessian(x, false) * v;
    f.objective.evaluate(x + 1e-6 * v, &gp);
    f.objective.evaluate(x - 1e-6 * v, &gm);
    EXPECT_LE((exact - (gp - gm) / 2e-6).norm(), 1e-5 * exact.norm()) << material;
  }
}

TEST(Objective, SpringGradientMatchesFiniteDifferences) {
  std::mt19937 rng(2);
  Fixture f(test::clothSceneJson());
  const VecX x = test::perturbed(f.built.model.rest, 0.1, rng);
  VecX gradient;
  f.objective.evaluate(x, &gradient);
  EXPECT_LE((gradient - test::finiteDifferenceGradient(f.objective, x)).norm(), 1e-6 * gradient.norm());
}

TEST(Objective, EnergyOnlyEvaluationEqualsEnergyWithGradient) {
  std::mt19937 rng(3);
  Fixture f(test::boxSceneJson(kMaterials[1]));
  const VecX x = test::perturbed(f.built.model.rest, 0.1, rng);
  VecX gradient;
  EnergyParts parts;
  EXPECT_DOUBLE_EQ(f.objective.evaluate(x, nullptr), f.objective.evaluate(x, &gradient, &parts));
  EXPECT_DOUBLE_EQ(parts.total(), f.objective.evaluate(x, nullptr));
  EXPECT_GT(parts.inertia, 0);
  EXPECT_GT(parts.elastic, 0);
  EXPECT_GT(parts.attachment, 0);
  EXPECT_GT(parts.contact, 0);
  EXPECT_GT(parts.drag, 0);
  EXPECT_GT(parts.wind, 0);
}

// A backtracking line search evaluates its trials without their gradients and completes the accepted
// one's later (frame_solver.cpp): the same value, parts and gradient, bit for bit, for every material,
// springs, a removed tet, material damping, a transformed energy and every kind of extra term, with
// an evaluation at another point in between.
TEST(Objective, DeferredGradientIsTheGradientBitForBit) {
  std::mt19937 rng(11);
  std::vector<std::string> scenes;
  for (const std::string& material : kMaterials) scenes.push_back(test::boxSceneJson(material));
  scenes.push_back(test::clothSceneJson());
  for (size_t i = 0; i < scenes.size(); ++i) {
    Fixture f(scenes[i]);
    Objective& objective = f.objective;
    const VecX x = test::perturbed(f.built.model.rest, 0.2, rng), other = test::perturbed(f.built.model.rest, 0.2, rng);
    objective.self_contacts.push_back({SelfContactTerm::Kind::VertexTriangle, Eigen::Vector4i(0, 1, 2, 3), 1.0, 1.0, 3e3});
    objective.frictions.push_back({4, vertex(x, 4) + Vec3(0.01, 0, 0.02), Vec3(0, 1, 0), 2.0, 1e-3});
    if (i % 2 == 1) {  // every other scene: damping, a removed element and c E(s x + o)
      objective.damping.weight = 0.3;
      objective.setDampingFrames(f.built.model.rest, test::perturbed(VecX::Zero(x.size()), 1.0, rng), 1.0 / 60.0);
      if (f.built.model.tets.size() > 0) f.built.model.tets.removed[1] = 1;
      objective.setEnergyTransform(4.0 / 9.0, 0.5, test::perturbed(0.5 * f.built.model.rest, 0.02, rng));
    }
    VecX gradient, deferred, scratch;
    EnergyParts parts, deferred_parts;
    const double g = objective.evaluate(x, &gradient, &parts);
    objective.evaluateDeferringGradient(other);  // stresses and forces at another point, to be replaced
    objective.evaluate(other, &scratch);
    EXPECT_EQ(objective.evaluateDeferringGradient(x, &deferred_parts), g) << scenes[i];
    objective.completeGradient(x, deferred);
    EXPECT_TRUE(deferred == gradient) << scenes[i] << ": largest difference " << (deferred - gradient).lpNorm<Eigen::Infinity>();
    EXPECT_EQ(deferred_parts.elastic, parts.elastic) << scenes[i];
    EXPECT_EQ(deferred_parts.self_contact, parts.self_contact) << scenes[i];
    EXPECT_GT(parts.self_contact, 0) << scenes[i];
    EXPECT_GT(parts.friction, 0) << scenes[i];
  }
}

// The tets' corner forces reach the gradient by two roads (corner_targets.h): straight into the
// accumulators of the vertices one part of the tets owns, or stored and gathered per vertex. Both add a
// vertex's forces in tet order, so the gradient's bits do not depend on the split, which follows the
// thread count: a box of 8,640 tets in both vector kernels' materials, one tet removed, evaluated directly
// and deferred, at two points in turn, split into 1 to 4 parts.
TEST(Objective, GradientBitsDoNotDependOnHowTheTetsAreSplit) {
  struct RestoreThreads {
    ~RestoreThreads() { setThreadCount(0); }
  } restore;
  BuiltModel built = test::buildInline(R"({"version": 1, "bodies": [{"name": "box",
    "shape": {"type": "box", "size": [1, 0.8, 0.6], "cells": [12, 12, 12]}, "density": 1000,
    "materials": [{"model": "corotated", "mu": 3e3, "lambda": 7e3},
                  {"name": "soft", "model": "neo_hookean", "mu": 2e3, "lambda": 9e3, "select": {"box": {"min": [-1, -1, -1], "max": [0.1, 1, 1]}}}]}]})");
  Model& model = built.model;
  ASSERT_EQ(model.tets.size(), 8640);
  model.tets.removed[4321] = 1;
  std::mt19937 rng(7);
  const VecX x[2] = {test::perturbed(model.rest, 0.05, rng), test::perturbed(model.rest, 0.05, rng)};
  std::vector<VecX> direct, deferred;
  for (int parts = 1; parts <= 4; ++parts) {
    setThreadCount(parts);  // one part a thread
    const CornerTargets split = cornerTargets(model.tets.vertices, std::vector<char>(model.vertexCount(), 0), parts, 0);
    const long owned = std::count(split.owned.begin(), split.owned.end(), 1);
    EXPECT_EQ(owned == model.vertexCount(), parts == 1) << parts << " parts own " << owned << " vertices";
    EXPECT_GT(owned, model.vertexCount() / 2) << parts;  // the tets' spatial order keeps most vertices in one part
    Objective objective(model);
    objective.setInertia(model.rest, 900.0);
    for (const VecX& at : x) {
      direct.emplace_back(), deferred.emplace_back();
      objective.evaluate(at, &direct.back());
      objective.evaluateDeferringGradient(at);
      objective.completeGradient(at, deferred.back());
    }
  }
  for (size_t i = 0; i < direct.size(); ++i) {
    EXPECT_TRUE(direct[i] == direct[i % 2]) << i / 2 + 1 << " parts, point " << i % 2;
    EXPECT_TRUE(deferred[i] == direct[i % 2]) << i / 2 + 1 << " parts, point " << i % 2;
  }
  EXPECT_FALSE(direct[0] == direct[1]);
}

// The unprojected Hessian times a random direction equals the finite difference of the gradient.
TEST(Objective, HessianMatchesFiniteDifferencesOfTheGradient) {
  std::mt19937 rng(4);
  std::vector<std::string> all = kMaterials;
  all.push_back("cloth");
  for (const std::string& material : all) {
    Fixture f(material == "cloth" ? test::clothSceneJson() : test::boxSceneJson(material));
    const VecX x = test::perturbed(f.built.model.rest, 0.1, rng), v = test::perturbed(VecX::Zero(x.size()), 1.0, rng);
    const SparseMatrix H = f.objective.hessian(x, /*project=*/false);
    VecX gp, gm;
    const double h = 1e-6;
    f.objective.evaluate(x + h * v, &gp);
    f.objective.evaluate(x - h * v, &gm);
    const VecX fd = (gp - gm) / (2 * h), exact = H * v;
    EXPECT_LE((exact - fd).norm(), 1e-5 * exact.norm()) << material;
    EXPECT_LE((SparseMatrix(H.transpose()) - H).norm(), 1e-9 * H.norm()) << material;
  }
}

TEST(Objective, ProjectedHessianIsPositiveSemidefinite) {
  std::mt19937 rng(6);
  for (const std::string& material : kMaterials) {
    Fixture f(test::boxSceneJson(material));
    f.objective.setInertia(f.built.model.rest, 0.0);  // without the mass term, only the projection keeps it PSD
    f.objective.contacts.clear();
    const VecX x = test::perturbed(f.built.model.rest, 0.3, rng);
    const Eigen::MatrixXd projected(f.objective.hessian(x, true)), exact(f.objective.hessian(x, false));
    const double min_projected = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(projected).eigenvalues().minCoeff();
    const double min_exact = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(exact).eigenvalues().minCoeff();
    EXPECT_GE(min_projected, -1e-9 * projected.norm()) << material;
    if (material.find("arap") == std::string::npos) {
      EXPECT_LT(min_exact, -1e-6 * exact.norm()) << material << ": the state should be indefinite for the test to mean anything";
    }
  }
}

// C30: internal forces sum to zero and exert no net torque (rotation-invariant materials).
TEST(Objective, ClaimC30NoGhostForces) {
  std::mt19937 rng(7);
  std::vector<std::string> all = kMaterials;  // the fibre term is anisotropic in rest space but world-rotation invariant
  all.push_back("cloth");
  for (const std::string& material : all) {
    const std::string json = material == "cloth" ? test::clothSceneJson() : test::boxSceneJson(material);
    BuiltModel built = test::buildInline(json);
    built.model.attachments.clear();  // external forces, not internal ones
    Objective objective(built.model);
    objective.setInertia(built.model.rest, 0.0);
    const VecX x = test::perturbed(built.model.rest, 0.2, rng);
    VecX gradient;
    objective.evaluate(x, &gradient);
    Vec3 force = Vec3::Zero(), torque = Vec3::Zero();
    for (int v = 0; v < built.model.vertexCount(); ++v) {
      force += vertex(gradient, v);
      torque += vertex(x, v).cross(vertex(gradient, v));
    }
    EXPECT_LE(force.norm(), 1e-10 * gradient.norm()) << material;
    EXPECT_LE(torque.norm(), 1e-10 * gradient.norm()) << material;
  }
}

}  // namespace
}  // namespace qnsim
