#pragma once
// Conjugate gradients as the settings configure them (solver.cg_iterations, cg_tolerance and
// cg_preconditioner): the one iterative solve of Newton's Hessian and of the L-BFGS initial Hessians
// A, the rest-pose and the per-frame Hessian (Figs. 16, 17).
#include <memory>

#include "core/solver/linear/incomplete_cholesky.h"
#include "qnsim/settings.h"

namespace qnsim {

class Objective;
class SystemMatrix;

class Pcg {
 public:
  // Factors the preconditioner once: ichol of A (n x n) or of the rest-pose Hessian M/h^2 + Hessian of E
  // at the rest shape, PSD-projected per element as the rest_hessian initial Hessian (3n x 3n). Jacobi
  // is taken from each system matrix instead.
  Pcg(const SolverSettings& settings, Objective& objective, const SystemMatrix& system);
  // x := K^-1 b approximately, from x = 0. K is n x n or 3n x 3n; an n x n ichol (of A) preconditions a
  // 3n x 3n K coordinate by coordinate; a 3n x 3n one does not fit an n x n K (fits() says so).
  CgResult solve(const SparseMatrix& K, const VecX& b, VecX& x, bool stop_on_indefinite = false) const;
  bool fits(Eigen::Index rows) const { return !ichol_ || ichol_->size() == rows || 3 * ichol_->size() == rows; }

 private:
  int iterations_;
  double tolerance_;
  std::unique_ptr<IncompleteCholeskyPreconditioner> ichol_;  // null: Jacobi
};

}  // namespace qnsim
