// Conjugate gradients (core/solver/linear/conjugate_gradient.h): the tolerance is reached on an SPD
// system, the iteration cap is honoured, the Gast et al. 2015 variant stops at negative curvature with
// a descent direction; and Newton + CG and ours + CG converge in the frame loop (Fig. 16).
#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <random>

#include "core/solver/linear/conjugate_gradient.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

// A sparse SPD matrix: a 1-D Laplacian chain plus a random positive diagonal.
SparseMatrix chain(int n, double shift) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.5, 2.0);
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.push_back({i, i, 2.0 + shift * u(rng)});
    if (i + 1 < n) t.push_back({i, i + 1, -1.0}), t.push_back({i + 1, i, -1.0});
  }
  SparseMatrix K(n, n);
  K.setFromTriplets(t.begin(), t.end());
  return K;
}

TEST(ConjugateGradient, ReachesItsToleranceOnAnSpdSystem) {
  const SparseMatrix K = chain(200, 0.1);
  const VecX b = VecX::LinSpaced(200, -1.0, 2.0);
  VecX x;
  const CgResult r = conjugateGradient(K, b, x, 1000, 1e-12, false);
  EXPECT_LE(r.relative_residual, 1e-12);
  EXPECT_FALSE(r.indefinite);
  EXPECT_LE((K * x - b).norm(), 1e-11 * b.norm());
  const Eigen::SimplicialLDLT<SparseMatrix> direct(K);
  EXPECT_LE((x - direct.solve(b)).norm(), 1e-9 * x.norm());
}

TEST(ConjugateGradient, StopsAtTheIterationCap) {
  const SparseMatrix K = chain(200, 0.1);
  VecX x;
  const CgResult r = conjugateGradient(K, VecX::Ones(200), x, 5, 0.0, false);
  EXPECT_EQ(r.iterations, 5);
  EXPECT_GT(r.relative_residual, 1e-6);
}

TEST(ConjugateGradient, GastVariantStopsAtNegativeCurvatureWithADescentDirection) {
  SparseMatrix K = chain(50, 0.1);
  K.coeffRef(10, 10) = -5.0;  // an indefinite Hessian, as without the PSD projection
  const VecX gradient = -VecX::Ones(50);
  VecX d;
  const CgResult r = conjugateGradient(K, -gradient, d, 100, 1e-12, true);
  EXPECT_TRUE(r.indefinite);
  EXPECT_LT(gradient.dot(d), 0.0) << "d must descend";
}

TEST(ConjugateGradient, NewtonAndOursWithCgConvergeInTheFrameLoop) {
  Simulation sim(loadScene(catalogScenePath("twisting_bar")));
  for (int f = 0; f < 3; ++f) sim.step();
  std::vector<Method> methods = {{"ours", {"solver.method=qn"}},
                                 {"ours + CG", {"solver.method=qn", "solver.linear_solver=cg"}},
                                 {"Newton + CG", {"solver.method=newton", "solver.linear_solver=cg"}},
                                 {"Gast CG", {"solver.method=newton", "solver.linear_solver=cg_indefinite"}}};
  for (Method& m : methods) m.edits.push_back("solver.iterations=10");
  const auto traces = sim.compareNextFrame(methods);
  for (const auto& t : traces) {
    for (size_t k = 1; k < t.result.iterations.size(); ++k) ASSERT_LE(t.result.iterations[k].g, t.result.iterations[k - 1].g);
    EXPECT_LT(t.rel_error.back(), 0.1);
  }
  std::printf("relative error after 10 iterations: ours %.3g, ours + CG15 %.3g, Newton + CG15 %.3g, Gast CG %.3g\n", traces[0].rel_error.back(),
              traces[1].rel_error.back(), traces[2].rel_error.back(), traces[3].rel_error.back());
  EXPECT_LT(traces[1].rel_error.back(), 10 * traces[0].rel_error.back()) << "C37: ours + CG15 within a decade of ours";
}

}  // namespace
}  // namespace qnsim
