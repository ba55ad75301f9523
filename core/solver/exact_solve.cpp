#include "core/solver/exact_solve.h"

#include "core/solver/frame_solver.h"
#include "core/solver/lbfgs.h"
#include "core/solver/newton.h"

namespace qnsim {

ExactSolver::ExactSolver(Objective& objective, SystemMatrix& system) : objective_(objective), system_(system) {}

ExactSolver::~ExactSolver() = default;

double ExactSolver::solve(VecX& x, const StepBound& bound) {
  // L-BFGS with a long window carries x most of the way cheaply (about 1 ms per iteration where a
  // Newton iteration refactors a 3n x 3n matrix); projected Newton then converges quadratically.
  VecX gradient;
  objective_.evaluate(x, &gradient);
  const double target = 1e-10 * gradient.norm();
  SolverSettings settings = Settings().solver;
  settings.gradient_tolerance = 1e-10;
  settings.iterations = 1000;
  settings.lbfgs_window = 20;
  FrameSolveResult result;
  LbfgsSolver lbfgs(makeInitialHessian(InitialHessianKind::Laplacian, objective_, system_, settings), settings.lbfgs_window);
  FrameSolver lbfgs_solver(objective_, lbfgs, settings);
  if (bound) lbfgs_solver.setStepBound(bound);
  lbfgs_solver.solve(x, result);
  const double remaining = result.iterations.back().grad_norm;
  if (remaining <= target) return result.g;
  settings.gradient_tolerance = target / remaining;
  settings.iterations = 10;
  if (!newton_) newton_ = std::make_unique<NewtonSolver>(objective_, system_, settings);
  FrameSolver newton_solver(objective_, *newton_, settings);
  if (bound) newton_solver.setStepBound(bound);
  newton_solver.solve(x, result);
  return result.g;
}

}  // namespace qnsim
