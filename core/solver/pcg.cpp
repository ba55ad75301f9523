#include "core/solver/pcg.h"

#include "core/objective/objective.h"
#include "core/solver/system_matrix.h"

namespace qnsim {

Pcg::Pcg(const SolverSettings& settings, Objective& objective, const SystemMatrix& system)
    : iterations_(settings.cg_iterations), tolerance_(settings.cg_tolerance) {
  switch (settings.cg_preconditioner) {
    case CgPreconditionerKind::Jacobi: break;
    case CgPreconditionerKind::IcholA: ichol_ = std::make_unique<IncompleteCholeskyPreconditioner>(system.matrix()); break;
    case CgPreconditionerKind::IcholRestHessian:
      ichol_ = std::make_unique<IncompleteCholeskyPreconditioner>(objective.hessian(objective.model().rest, /*project=*/true));
      break;
  }
}

CgResult Pcg::solve(const SparseMatrix& K, const VecX& b, VecX& x, bool stop_on_indefinite) const {
  if (ichol_) return conjugateGradient(K, b, x, *ichol_, iterations_, tolerance_, stop_on_indefinite);
  return conjugateGradient(K, b, x, iterations_, tolerance_, stop_on_indefinite);
}

}  // namespace qnsim
