// g seen from one vertex (core/objective/vertex_blocks.h), the absolute eigenvalue filter
// (element_hessian.h) and the vertex colouring: the blocks are those of the assembled gradient and
// Hessian for every kind of term and integrator, material damping included; the filtered Hessians are
// positive semidefinite and order as the theory says; a colour's vertices share no element.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <set>

#include "core/model/coloring.h"
#include "core/objective/element_hessian.h"
#include "core/objective/vertex_blocks.h"
#include "core/objective/wind.h"
#include "tests/material_fixtures.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

const std::vector<std::string> kMaterials = {
    R"({"model": "neo_hookean", "mu": 2e3, "lambda": 9e3})",
    R"({"model": "stvk", "mu": 2e3, "lambda": 3e3})",
    R"({"model": "polynomial", "mu2": 5e2, "mu4": 3e3, "mu6": 1e3})",
    R"({"model": "corotated", "mu": 3e3, "lambda": 7e3, "fiber": {"direction": [1, 1, 0], "kappa": 5e3}})",
};

// Every kind of vertex term on the test box: attachments (the scene's), a contact, a self-contact, a
// friction, a drag and wind.
struct Fixture {
  explicit Fixture(const std::string& json) : built(test::buildInline(json)), objective(built.model) {
    std::mt19937 rng(5);
    objective.setInertia(test::perturbed(built.model.rest, 0.05, rng), 900.0);
    objective.contacts.push_back({3, Vec3(0, 0.2, 0), Vec3(0.3, 1, 0.1).normalized(), 2e4});
    objective.self_contacts.push_back({SelfContactTerm::Kind::VertexTriangle, Eigen::Vector4i(4, 10, 11, 13), 1.0, 1.5, 3e3});
    objective.frictions.push_back({7, Vec3(0.1, 0.0, 0.2), Vec3(0, 1, 0), 40.0, 0.01});
    objective.drags.push_back({5, Vec3(0.2, 0.3, 0.1), 5e3});
    const WindSettings wind{Vec3(3, -1, 2), 40.0, 0.5, 0.7, 3};
    makeWindTerms(built.model, test::perturbed(built.model.rest, 0.05, rng), wind, 1.0 / 30.0, 0.4, objective.winds);
  }
  BuiltModel built;
  Objective objective;
};

Mat3 diagonalBlock(const SparseMatrix& H, int v) {
  Mat3 b;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) b(r, c) = H.coeff(3 * v + r, 3 * v + c);
  return b;
}

// The blocks read from cacheTets (block Jacobi's one evaluation per tet) are those computed per vertex.
void expectCachedBlocksAreTheSame(VertexBlocks& blocks, const VecX& x, int vertices, const std::string& what) {
  std::vector<VertexBlocks::Block> direct;
  for (int v = 0; v < vertices; ++v) direct.push_back(blocks.block(x, v));
  blocks.cacheTets(x);
  for (int v = 0; v < vertices; ++v) {
    const VertexBlocks::Block b = blocks.block(x, v);
    EXPECT_NEAR(b.energy, direct[v].energy, 1e-12 * std::abs(direct[v].energy)) << what << ", vertex " << v;
    EXPECT_LE((b.gradient - direct[v].gradient).norm(), 1e-12 * direct[v].gradient.norm()) << what << ", vertex " << v;
    EXPECT_LE((b.hessian - direct[v].hessian).norm(), 1e-12 * direct[v].hessian.norm()) << what << ", vertex " << v;
  }
  blocks.dropTetCache();
}

TEST(VertexBlocks, AreTheBlocksOfTheAssembledGradientAndHessianForEveryTermAndIntegrator) {
  std::mt19937 rng(2);
  std::vector<std::string> scenes;
  for (const std::string& material : kMaterials) scenes.push_back(test::boxSceneJson(material));
  scenes.push_back(test::clothSceneJson());
  for (const std::string& material : scenes)
    for (const bool transformed : {false, true}) {  // backward Euler, and implicit midpoint's c E(s x + o)
      Fixture f(material);
      if (transformed) f.objective.setEnergyTransform(1.0, 0.5, test::perturbed(0.5 * f.built.model.rest, 0.02, rng));
      const VecX x = test::perturbed(f.built.model.rest, 0.12, rng);
      VecX gradient;
      f.objective.evaluate(x, &gradient);
      ASSERT_LT(f.objective.self_contacts.front().gap(x), 0.0) << "the self-contact pushes";
      const SparseMatrix H = f.objective.hessian(x, EigenvalueFilter::Clamp);
      VertexBlocks blocks(f.objective, EigenvalueFilter::Clamp);
      blocks.index();
      for (int v = 0; v < f.built.model.vertexCount(); ++v) {
        const VertexBlocks::Block b = blocks.block(x, v);
        EXPECT_LE((b.gradient - vertex(gradient, v)).norm(), 1e-9 * gradient.norm()) << material << ", vertex " << v;
        EXPECT_LE((b.hessian - diagonalBlock(H, v)).norm(), 1e-9 * diagonalBlock(H, v).norm()) << material << ", vertex " << v;
      }
      expectCachedBlocksAreTheSame(blocks, x, f.built.model.vertexCount(), material);
    }
}

// Moving one vertex changes g by exactly the change of that vertex's block energy.
TEST(VertexBlocks, TheBlockEnergyChangesAsGDoesWhenOneVertexMoves) {
  std::mt19937 rng(3);
  Fixture f(test::boxSceneJson(kMaterials[0]));
  VertexBlocks blocks(f.objective, EigenvalueFilter::Clamp);
  blocks.index();
  const VecX x = test::perturbed(f.built.model.rest, 0.1, rng);
  for (int v : {0, 3, 4, 5, 7, 13, 26}) {
    VecX moved = x;
    vertex(moved, v) += Vec3(0.01, -0.02, 0.015);
    const double dg = f.objective.evaluate(moved, nullptr) - f.objective.evaluate(x, nullptr);
    const double db = blocks.block(moved, v).energy - blocks.block(x, v).energy;
    EXPECT_NEAR(db, dg, 1e-9 * std::abs(f.objective.evaluate(x, nullptr))) << "vertex " << v;
  }
}

// Stiffness-proportional damping (objective.h) seen from each vertex: the same blocks as assembled.
TEST(VertexBlocks, CoverMaterialDampingToo) {
  std::mt19937 rng(6);
  for (const std::string& json : {test::boxSceneJson(kMaterials[3]), test::clothSceneJson()}) {
    Fixture f(json);
    const VecX x0 = test::perturbed(f.built.model.rest, 0.05, rng);
    f.objective.damping.weight = 0.3;
    f.objective.damping.anchor = x0;
    f.objective.setDampingFrames(x0, test::perturbed(VecX::Zero(x0.size()), 1.0, rng), 1.0 / 30);
    const VecX x = test::perturbed(x0, 0.05, rng);
    VecX gradient;
    f.objective.evaluate(x, &gradient);
    const SparseMatrix H = f.objective.hessian(x, EigenvalueFilter::Clamp);
    VertexBlocks blocks(f.objective, EigenvalueFilter::Clamp);
    blocks.index();
    for (int v = 0; v < f.built.model.vertexCount(); ++v) {
      const VertexBlocks::Block b = blocks.block(x, v);
      EXPECT_LE((b.gradient - vertex(gradient, v)).norm(), 1e-9 * gradient.norm()) << "vertex " << v;
      EXPECT_LE((b.hessian - diagonalBlock(H, v)).norm(), 1e-9 * diagonalBlock(H, v).norm()) << "vertex " << v;
    }
    expectCachedBlocksAreTheSame(blocks, x, f.built.model.vertexCount(), "damped");
  }
}

// Chen et al. 2024: |lambda| instead of max(lambda, 0). Per tet, on random and inverted deformations:
// the filtered Hessian is positive semidefinite, exceeds the clamped one by sum |lambda_-| w w^T and the
// exact one by twice that (so H_abs >= H_clamp >= 0), and all three agree where dP/dF is definite.
TEST(EigenvalueFilter, AbsoluteValuesGiveAPositiveSemidefiniteHessianAboveTheClampedOne) {
  std::mt19937 rng(4);
  int indefinite = 0;
  for (const std::string& material : kMaterials) {
    Fixture f(test::boxSceneJson(material));
    const Model& model = f.built.model;
    for (double amplitude : {0.02, 0.3}) {
      const VecX x = test::perturbed(model.rest, amplitude, rng);
      for (int e = 0; e < model.tets.size(); ++e) {
        const Mat12 none = tetHessian(model, e, x, EigenvalueFilter::None), clamp = tetHessian(model, e, x, EigenvalueFilter::Clamp),
                    absolute = tetHessian(model, e, x, EigenvalueFilter::Absolute);
        const double scale = none.norm();
        const auto smallest = [](const Mat12& M) { return Eigen::SelfAdjointEigenSolver<Mat12>(M).eigenvalues().minCoeff(); };
        EXPECT_GE(smallest(absolute), -1e-9 * scale) << material << ", tet " << e;
        EXPECT_GE(smallest(absolute - clamp), -1e-9 * scale) << material << ", tet " << e;
        EXPECT_LE((absolute - none - 2.0 * (clamp - none)).norm(), 1e-9 * scale) << "H_abs - H = 2 (H_clamp - H)";
        if ((clamp - none).norm() > 1e-9 * scale)
          ++indefinite;
        else
          EXPECT_LE((absolute - none).norm(), 1e-9 * scale) << "a definite element is left alone";
      }
    }
  }
  EXPECT_GT(indefinite, 20) << "the deformations reach indefinite elements";
}

// The assembled Newton matrix with the absolute filter is positive definite, and newton_abs solves a
// compressed Neo-Hookean frame to the exact minimiser with g decreasing at every iteration.
TEST(EigenvalueFilter, NewtonWithAbsoluteValuesConvergesMonotonically) {
  Scene scene = parseScene(test::boxSceneJson(R"({"model": "neo_hookean", "mu": 3e4, "lambda": 3e6})"), "inline.json");
  for (const char* e : {"solver.method=newton_abs", "solver.iterations=30", "solver.gradient_tolerance=1e-12", "gravity=0,-60,0"})
    applyOverride(scene, e);
  Simulation sim(scene);
  sim.setReferenceEnabled(true);
  for (int f = 0; f < 4; ++f) {
    sim.step();
    const auto& its = sim.lastSolve().iterations;
    // Decreasing up to the frame loop's round-off allowance (1e-14 |g|, frame_solver.cpp).
    for (size_t k = 1; k < its.size(); ++k)
      EXPECT_LE(its[k].g, its[k - 1].g + 2e-14 * std::abs(its[k - 1].g)) << "frame " << f << ", iteration " << k;
    EXPECT_LT(sim.lastRelativeErrors().back(), 1e-10) << "frame " << f;
  }
  Objective& objective = test::objectiveOf(sim);
  const Eigen::MatrixXd H(objective.hessian(sim.positions(), EigenvalueFilter::Absolute));
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues().minCoeff(), 0.0);
}

TEST(VertexColoring, AColoursVerticesShareNoElementAndEveryVertexHasOneColour) {
  for (const std::string& json : {test::boxSceneJson(kMaterials[0]), test::clothSceneJson()}) {
    const BuiltModel built = test::buildInline(json);
    const Model& model = built.model;
    const auto colors = colorVertices(model);
    std::vector<int> color(model.vertexCount(), -1);
    for (size_t c = 0; c < colors.size(); ++c)
      for (int v : colors[c]) {
        EXPECT_EQ(color[v], -1) << "vertex " << v << " coloured twice";
        color[v] = static_cast<int>(c);
      }
    for (int v = 0; v < model.vertexCount(); ++v) EXPECT_GE(color[v], 0) << "vertex " << v;
    for (const auto& t : model.tets.vertices)
      for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) EXPECT_NE(color[t[a]], color[t[b]]);
    for (const auto& s : model.springs.vertices) EXPECT_NE(color[s[0]], color[s[1]]);
    EXPECT_LE(colors.size(), 30u);
  }
}

}  // namespace
}  // namespace qnsim
