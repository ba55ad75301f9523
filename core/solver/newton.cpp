#include "core/solver/newton.h"

#include <cmath>

#include "core/common/timer.h"
#include "qnsim/error.h"

namespace qnsim {

NewtonSolver::NewtonSolver(Objective& objective, const SystemMatrix& system, const SolverSettings& settings)
    : objective_(objective),
      linear_(settings.linear_solver),
      filter_(settings.method == SolverMethod::NewtonAbsolute ? EigenvalueFilter::Absolute : EigenvalueFilter::Clamp),
      cholesky_(SparseCholesky::create(true)) {
  if (linear_ != LinearSolverKind::Direct) cg_ = std::make_unique<Pcg>(settings, objective, system);
}

void NewtonSolver::direction(const VecX& x, const VecX& gradient, VecX& d, PhaseTimes& times) {
  Timer timer;
  const SparseMatrix& H = objective_.hessian(x, linear_ == LinearSolverKind::IndefiniteCg ? EigenvalueFilter::None : filter_);
  times.gradient += timer.ms();  // Hessian assembly is counted with the derivative evaluations
  timer.restart();
  if (linear_ != LinearSolverKind::Direct) {
    cg_->solve(H, -gradient, d, linear_ == LinearSolverKind::IndefiniteCg);
    times.linear_solve += timer.ms();
    return;
  }
  if (!analyzed_) {
    cholesky_->analyze(H);
    analyzed_ = true;
  }
  factorizeRegularized(H);
  d = -gradient;
  cholesky_->solve(d);
  times.linear_solve += timer.ms();
}

// H + M/h^2 is positive definite in exact arithmetic (every element block is PSD), but in a blown-up
// state round-off can break that; then, as Liu's reference code does, add a growing multiple of the
// identity until the factorization succeeds.
void NewtonSolver::factorizeRegularized(const SparseMatrix& H) {
  double shift = 0.0;
  const double scale = H.diagonal().cwiseAbs().maxCoeff();
  for (int attempt = 0;; ++attempt) {
    try {
      ++factorizations_;
      if (shift == 0.0) {
        cholesky_->factorize(H);
      } else {
        shifted_ = H;
        shifted_.diagonal().array() += shift;
        cholesky_->factorize(shifted_);
      }
      return;
    } catch (const Error&) {
      if (attempt == 6 || !std::isfinite(scale)) throw;
      shift = shift == 0.0 ? 1e-12 * scale : 100.0 * shift;
    }
  }
}

}  // namespace qnsim
