#pragma once
// Newton's method, the paper's baseline: the exact Hessian with every element block projected to its
// nearest PSD matrix (Teran et al. 2005), a fresh 3n x 3n numeric factorization each iteration (the
// symbolic analysis of the fixed pattern is reused), and the same line search as everything else.
#include <memory>

#include "core/objective/objective.h"
#include "core/solver/direction.h"
#include "core/solver/linear/sparse_cholesky.h"
#include "core/solver/pcg.h"

namespace qnsim {

class NewtonSolver final : public DirectionSolver {
 public:
  // With settings.linear_solver = cg the projected Hessian is solved by preconditioned conjugate
  // gradients (settings.cg_preconditioner; ichol_a needs `system`), with cg_indefinite the unprojected
  // one, stopping at negative curvature (Gast et al. 2015). solver.method = newton_abs filters the
  // element blocks' eigenvalues by their absolute values instead of clamping them (element_hessian.h).
  NewtonSolver(Objective& objective, const SystemMatrix& system, const SolverSettings& settings);
  void direction(const VecX& x, const VecX& gradient, VecX& d, PhaseTimes& times) override;
  long factorizations() const override { return factorizations_; }

 private:
  void factorizeRegularized(const SparseMatrix& H);

  Objective& objective_;
  LinearSolverKind linear_;
  EigenvalueFilter filter_;
  std::unique_ptr<Pcg> cg_;  // null for the direct solve
  SparseMatrix shifted_;
  std::unique_ptr<SparseCholesky> cholesky_;
  bool analyzed_ = false;
  long factorizations_ = 0;
};

}  // namespace qnsim
