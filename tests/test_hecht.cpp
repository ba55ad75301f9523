// The Hecht et al. 2012 baseline of Fig. 10 (solver.method=hecht): Newton steps with the projected
// Hessian refactored only at the start of every N-th frame and warped by per-vertex rotations between
// refreshes. Its own theory: N = 1 is the per-frame Hessian; the factor is reused in between, so a run of
// F frames factors ceil(F / N) times; a rigid turn between refreshes turns the inverse Hessian with the
// body at no cost; the warped operator stays symmetric positive definite (so -A0^-1 grad g descends);
// runs are deterministic.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <random>

#include "core/solver/initial_hessian.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

Scene box() {
  Scene scene = parseScene(test::boxSceneJson(R"({"model": "neo_hookean", "mu": 3e4, "lambda": 1e5})"), "inline.json");
  scene.settings.threads = 1;
  return scene;
}

Scene withSettings(Scene scene, const std::vector<std::string>& assignments) {
  for (const std::string& a : assignments) {
    const auto [key, value] = splitAssignment(a);
    setParameter(scene.settings, key, value);
  }
  return scene;
}

struct Outcome {
  VecX x;
  long factorizations = 0;
  bool fallback = false;  // any iteration's direction failed to descend
};

Outcome run(const Scene& scene, int frames) {
  Simulation sim(scene);
  Outcome r;
  for (int f = 0; f < frames; ++f) {
    sim.step();
    for (const IterationRecord& it : sim.lastSolve().iterations) r.fallback |= it.fallback;
  }
  r.x = sim.positions();
  r.factorizations = sim.lastFrame().factorizations;
  return r;
}

// The inverse operator A0^-1 as a dense matrix, at x, for a new frame.
Eigen::MatrixXd inverseOperator(InitialHessian& a0, const VecX& x) {
  const Eigen::Index n = x.size();
  Eigen::MatrixXd inverse(n, n);
  a0.prepare(x);
  for (Eigen::Index i = 0; i < n; ++i) {
    a0.reset();
    VecX e = VecX::Unit(n, i);
    a0.apply(x, e, nullptr, nullptr);
    inverse.col(i) = e;
  }
  return inverse;
}

TEST(Hecht, RefreshingEveryFrameIsThePerFrameHessian) {
  const Outcome hecht = run(withSettings(box(), {"solver.method=hecht", "solver.hessian_refresh_frames=1"}), 6);
  const Outcome per_frame = run(withSettings(box(), {"solver.method=qn", "solver.lbfgs_window=0", "solver.initial_hessian=frame_hessian"}), 6);
  EXPECT_TRUE(hecht.x == per_frame.x) << "|difference| " << (hecht.x - per_frame.x).norm();
  EXPECT_EQ(hecht.factorizations, per_frame.factorizations);
}

TEST(Hecht, FactorsOncePerRefreshAndDescendsBetween) {
  const int frames = 7;
  const long system_only = run(withSettings(box(), {"solver.method=pd"}), frames).factorizations;  // A = M/h^2 + L, once
  for (const int n : {1, 2, 3, 5, 10}) {
    const Outcome r = run(withSettings(box(), {"solver.method=hecht", "solver.hessian_refresh_frames=" + std::to_string(n)}), frames);
    EXPECT_EQ(r.factorizations - system_only, (frames + n - 1) / n) << "N = " << n;
    EXPECT_FALSE(r.fallback) << "N = " << n << ": every direction descends";
    EXPECT_TRUE(r.x.allFinite());
  }
}

TEST(Hecht, DeterministicRuns) {
  const Scene scene = withSettings(box(), {"solver.method=hecht", "solver.hessian_refresh_frames=3"});
  EXPECT_TRUE(run(scene, 8).x == run(scene, 8).x);
}

// Frame 1 refreshes at a deformed state x1; frame 2 (no refresh) sees x1 turned rigidly by Q. The
// warp W = R(Q x1) R(x1)^T is Q per vertex, so A0^-1 = Q H(x1)^-1 Q^T, which is the per-frame Hessian's
// inverse at Q x1 (H turns with the body), without a second factorization. A non-rigid change on frame 3
// still gives a symmetric positive definite operator.
TEST(Hecht, BetweenRefreshesTheFactorTurnsWithTheBody) {
  Simulation sim(box());
  const Model& model = sim.model();
  std::mt19937 rng(7);
  const VecX x1 = test::perturbed(model.rest, 0.05, rng), x3 = test::perturbed(model.rest, 0.1, rng);
  const Mat3 turn = Eigen::AngleAxisd(0.9, Vec3(1, -2, 0.5).normalized()).toRotationMatrix();
  VecX x2 = x1;
  for (int v = 0; v < model.vertexCount(); ++v) vertex(x2, v) = turn * vertex(x1, v);

  Objective& objective = test::objectiveOf(sim);
  const auto hecht = makeHechtHessian(objective, 3);
  SystemMatrix system(model, objective.inertiaWeight());
  const auto per_frame = makeInitialHessian(InitialHessianKind::FrameHessian, objective, system, sim.settings().solver);
  inverseOperator(*hecht, x1);
  const Eigen::MatrixXd turned = inverseOperator(*hecht, x2), exact = inverseOperator(*per_frame, x2);
  EXPECT_EQ(hecht->factorizations(), 1);
  EXPECT_LE((turned - exact).norm(), 1e-8 * exact.norm());

  const Eigen::MatrixXd warped = inverseOperator(*hecht, x3);
  EXPECT_EQ(hecht->factorizations(), 1);
  EXPECT_LE((warped - warped.transpose()).norm(), 1e-9 * warped.norm()) << "symmetric";
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(0.5 * (warped + warped.transpose())).eigenvalues().minCoeff(), 0.0)
      << "positive definite";
  inverseOperator(*hecht, x3);
  EXPECT_EQ(hecht->factorizations(), 2) << "frame 4 refreshes (N = 3)";
}

}  // namespace
}  // namespace qnsim
