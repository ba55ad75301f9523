// Preconditioned conjugate gradients (solver.cg_preconditioner; Fig. 17): incomplete Cholesky reaches
// its tolerance in fewer iterations than Jacobi, also when an n x n factor preconditions a 3n x 3n
// system per coordinate; every preconditioner gives a descent direction, for Newton's system and for
// each initial Hessian solved by CG; the per-frame Hessian solved by CG to a tight tolerance matches
// its direct solve, alone and through a whole frame of L-BFGS.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/objective/objective.h"
#include "core/solver/initial_hessian.h"
#include "core/solver/pcg.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

// The 5-point Laplacian of a side x side grid plus a small shift: SPD, and unlike a chain its
// incomplete Cholesky factor is not exact.
SparseMatrix grid(int side, double shift) {
  std::vector<Eigen::Triplet<double>> t;
  const auto at = [side](int i, int j) { return i * side + j; };
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j) {
      t.push_back({at(i, j), at(i, j), 4.0 + shift * (1 + (i * 7 + j * 3) % 5)});
      if (i + 1 < side) t.push_back({at(i, j), at(i + 1, j), -1.0}), t.push_back({at(i + 1, j), at(i, j), -1.0});
      if (j + 1 < side) t.push_back({at(i, j), at(i, j + 1), -1.0}), t.push_back({at(i, j + 1), at(i, j), -1.0});
    }
  SparseMatrix K(side * side, side * side);
  K.setFromTriplets(t.begin(), t.end());
  return K;
}

const std::vector<std::string> kPreconditioners = {"jacobi", "ichol_a", "ichol_rest_hessian"};

// `base` solved by CG with the named preconditioner (set through the registry, as --set does).
SolverSettings cgSettings(Settings base, const std::string& preconditioner, int iterations, double tolerance) {
  setParameter(base, "solver.linear_solver", "cg");
  setParameter(base, "solver.cg_preconditioner", preconditioner);
  base.solver.cg_iterations = iterations;
  base.solver.cg_tolerance = tolerance;
  return base.solver;
}

TEST(Preconditioners, IncompleteCholeskyReachesTheToleranceInFewerIterationsThanJacobi) {
  const SparseMatrix K = grid(30, 0.01);
  const VecX b = VecX::LinSpaced(K.rows(), -1.0, 2.0);
  VecX jacobi, ichol;
  const CgResult rj = conjugateGradient(K, b, jacobi, 1000, 1e-10, false);
  const IncompleteCholeskyPreconditioner P(K);
  const CgResult ri = conjugateGradient(K, b, ichol, P, 1000, 1e-10, false);
  std::printf("iterations to a relative residual of 1e-10: Jacobi %d, ichol %d\n", rj.iterations, ri.iterations);
  EXPECT_LE(rj.relative_residual, 1e-10);
  EXPECT_LE(ri.relative_residual, 1e-10);
  EXPECT_LT(ri.iterations, rj.iterations);
  EXPECT_LE((ichol - jacobi).norm(), 1e-8 * jacobi.norm());

  // The same factor on K (x) I3, coordinate by coordinate (ichol_a for a 3n x 3n system).
  const SparseMatrix K3 = perCoordinate(K);
  VecX b3(3 * K.rows()), x3;
  for (Eigen::Index i = 0; i < K.rows(); ++i) vertex(b3, i) = Vec3(b[i], -b[i], 0.5);
  const CgResult r3 = conjugateGradient(K3, b3, x3, P, 1000, 1e-10, false);
  EXPECT_LE(r3.relative_residual, 1e-10);
  EXPECT_LE((K3 * x3 - b3).norm(), 1e-9 * b3.norm());
  VecX too_short;
  EXPECT_THROW(P.apply(VecX::Ones(2 * K.rows()), too_short), Error);
}

TEST(Preconditioners, TheRegistryRefusesAnUnknownPreconditioner) {
  Settings s;
  EXPECT_EQ(s.solver.cg_preconditioner, CgPreconditionerKind::Jacobi) << "today's behaviour is the default";
  try {
    setParameter(s, "solver.cg_preconditioner", "ichol");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ichol_rest_hessian"), std::string::npos) << e.what();
  }
}

// A deformed box: its Hessian is far from the rest-pose one, and unprojected it need not be definite.
struct DeformedBox {
  Simulation sim{parseScene(test::boxSceneJson(R"({"model": "neo_hookean", "mu": 3e4, "lambda": 1e5})"), "inline.json")};
  VecX x, gradient;
  DeformedBox() {
    sim.step();
    std::mt19937 rng(5);
    x = test::perturbed(sim.model().rest, 0.08, rng);
    test::objectiveOf(sim).evaluate(x, &gradient);
  }
};

TEST(Preconditioners, EachGivesADescentDirection) {
  DeformedBox box;
  Objective& objective = test::objectiveOf(box.sim);
  SystemMatrix system(box.sim.model(), objective.inertiaWeight());
  for (const std::string& name : kPreconditioners) {
    const SolverSettings settings = cgSettings(box.sim.settings(), name, 3, 0.0);  // far from converged
    const Pcg pcg(settings, objective, system);
    for (const bool project : {true, false}) {  // Newton's cg, and cg_indefinite (Gast et al.)
      const SparseMatrix H = objective.hessian(box.x, project);
      VecX d;
      pcg.solve(H, -box.gradient, d, !project);
      EXPECT_LT(box.gradient.dot(d), 0.0) << name << (project ? " projected" : " unprojected");
    }
    for (const InitialHessianKind kind : {InitialHessianKind::Laplacian, InitialHessianKind::RestHessian, InitialHessianKind::FrameHessian}) {
      const auto A0 = makeInitialHessian(kind, objective, system, settings);
      A0->reset();
      VecX d = -box.gradient;
      A0->apply(box.x, d, nullptr, nullptr);
      EXPECT_LT(box.gradient.dot(d), 0.0) << name << ", initial Hessian " << static_cast<int>(kind);
    }
  }
}

TEST(Preconditioners, FrameHessianByCgMatchesItsDirectSolve) {
  DeformedBox box;
  Objective& objective = test::objectiveOf(box.sim);
  SystemMatrix system(box.sim.model(), objective.inertiaWeight());
  const auto direct = makeInitialHessian(InitialHessianKind::FrameHessian, objective, system, box.sim.settings().solver);
  direct->reset();
  VecX exact = -box.gradient;
  direct->apply(box.x, exact, nullptr, nullptr);
  for (const std::string& name : kPreconditioners) {
    const auto cg = makeInitialHessian(InitialHessianKind::FrameHessian, objective, system, cgSettings(box.sim.settings(), name, 5000, 1e-14));
    cg->reset();
    VecX d = -box.gradient;
    cg->apply(box.x, d, nullptr, nullptr);
    EXPECT_LE((d - exact).norm(), 1e-9 * exact.norm()) << name;
    EXPECT_EQ(cg->factorizations(), 0) << "PCG factors no Hessian";
  }
}

TEST(Preconditioners, FrameHessianLbfgsByCgFollowsTheDirectSolveThroughAFrame) {
  Simulation sim(parseScene(test::boxSceneJson(R"({"model": "neo_hookean", "mu": 3e4, "lambda": 1e5})"), "inline.json"));
  sim.step();
  // The same number of iterations for all.
  std::vector<Method> methods = {{"direct", {"solver.initial_hessian=frame_hessian", "solver.gradient_tolerance=0"}}};
  for (const std::string& name : kPreconditioners)
    methods.push_back({name, {"solver.initial_hessian=frame_hessian", "solver.gradient_tolerance=0", "solver.linear_solver=cg",
                              "solver.cg_preconditioner=" + name, "solver.cg_iterations=5000", "solver.cg_tolerance=1e-14"}});
  const auto traces = sim.compareNextFrame(methods);
  for (size_t m = 1; m < traces.size(); ++m) {
    // Both reach round-off within the frame and stop there (frame_solver.cpp), maybe an iteration apart.
    const size_t common = std::min(traces[m].rel_error.size(), traces[0].rel_error.size());
    EXPECT_GE(common, 5u);
    for (size_t k = 0; k < common; ++k)
      EXPECT_NEAR(traces[m].rel_error[k], traces[0].rel_error[k], 1e-8) << kPreconditioners[m - 1] << ", iteration " << k;
  }
}

// Ours under the contact barrier (initial_hessian.cpp): A0^-1 = (I - N) A^-1 (I - N) + N D^-1 N with N
// the contact normals' blocks and D = A's diagonal plus the barrier's curvature along them. Symmetric
// and positive definite; a contact vertex moves along its normal by the barrier's own Newton step; and
// with no vertex within reach it is A^-1 itself.
TEST(Preconditioners, OursSeesTheBarriersCurvatureAlongContactNormals) {
  DeformedBox box;
  Objective& objective = test::objectiveOf(box.sim);
  SystemMatrix system(box.sim.model(), objective.inertiaWeight());
  const auto A0 = makeInitialHessian(InitialHessianKind::Laplacian, objective, system, box.sim.settings().solver);
  // Vertex 3 along two directions (pressed from two sides), the others along one; a vertex's further
  // direction where the barrier is softer than A's diagonal is left to A^-1 (weak, below).
  const std::vector<NormalStiffness> contacts = {
      {3, Vec3(0, 1, 0), 5e6}, {3, Vec3(1, 0, 0), 3e6}, {7, Vec3(1, 2, 2) / 3.0, 2e3}, {12, Vec3(0, 0, -1), 40.0}};
  const NormalStiffness weak{3, Vec3(0, 0, 1), 10.0};
  std::vector<NormalStiffness> reported;
  objective.barrier_curvature = [&](const VecX&, std::vector<NormalStiffness>& out) { out = reported; };
  std::mt19937 rng(2);
  std::normal_distribution<double> normal(0, 1);
  const auto random = [&] {
    VecX v(box.x.size());
    for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = normal(rng);
    return v;
  };
  const auto apply = [&](VecX v) {
    A0->apply(box.x, v, nullptr, nullptr);
    return v;
  };
  const VecX u = random(), v = random();
  VecX plain = u;
  system.solve(plain);
  EXPECT_EQ(apply(u), plain);  // nothing within reach: A^-1
  reported = contacts;
  reported.insert(reported.begin() + 2, weak);
  EXPECT_NEAR(u.dot(apply(v)), v.dot(apply(u)), 1e-12 * std::abs(u.dot(apply(v))));
  for (int trial = 0; trial < 20; ++trial) {
    const VecX w = random();
    EXPECT_GT(w.dot(apply(w)), 0.0);
  }
  for (const NormalStiffness& c : contacts) {  // a push along one contact normal moves that vertex alone
    VecX push = VecX::Zero(box.x.size());
    vertex(push, c.vertex) = c.normal;
    const VecX moved = apply(push);
    EXPECT_NEAR(vertex(moved, c.vertex).dot(c.normal), 1.0 / (system.matrix().coeff(c.vertex, c.vertex) + c.stiffness), 1e-15);
    EXPECT_LT((vertex(moved, c.vertex) - vertex(moved, c.vertex).dot(c.normal) * c.normal).norm(), 1e-15);
    vertex(push, c.vertex).setZero();
    EXPECT_EQ(moved.norm(), vertex(moved, c.vertex).norm());
  }
  VecX push = VecX::Zero(box.x.size());  // the weak direction: through A^-1, which moves the others too
  vertex(push, weak.vertex) = weak.normal;
  VecX others = apply(push);
  const double own = vertex(others, weak.vertex).norm();
  vertex(others, weak.vertex).setZero();
  EXPECT_GT(others.norm(), 0.5 * own);
}

}  // namespace
}  // namespace qnsim
