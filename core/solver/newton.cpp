#include "core/solver/newton.h"

#include "core/common/timer.h"

namespace qnsim {

NewtonSolver::NewtonSolver(Objective& objective) : objective_(objective), cholesky_(SparseCholesky::create(true)) {}

void NewtonSolver::direction(const VecX& x, const VecX& gradient, VecX& d, PhaseTimes& times) {
  Timer timer;
  const SparseMatrix& H = objective_.hessian(x, /*project=*/true);
  times.gradient += timer.ms();  // Hessian assembly is counted with the derivative evaluations
  timer.restart();
  if (!analyzed_) {
    cholesky_->analyze(H);
    analyzed_ = true;
  }
  cholesky_->factorize(H);
  ++factorizations_;
  d = -gradient;
  cholesky_->solve(d);
  times.linear_solve += timer.ms();
}

}  // namespace qnsim
