#pragma once
// Incomplete Cholesky preconditioners for conjugate gradients (Fig. 17: ichol of the rest-pose Hessian
// and of A = M/h^2 + L). Eigen's IncompleteCholesky is Lin and More 1999: AMD ordering, a symmetric
// diagonal scaling, as many entries per column as the matrix has (not necessarily in its pattern), and
// a diagonal shift if a pivot breaks down. The paper does not say which ichol it used (MATLAB's
// ichol defaults to zero-fill IC(0) without a shift), so our preconditioners need not be its.
#include <memory>

#include "core/solver/linear/conjugate_gradient.h"

namespace qnsim {

class IncompleteCholeskyPreconditioner final : public Preconditioner {
 public:
  // Factors the m x m SPD matrix M (its lower triangle is read); throws qnsim::Error if even the
  // shifted factorization breaks down.
  explicit IncompleteCholeskyPreconditioner(const SparseMatrix& M);
  ~IncompleteCholeskyPreconditioner() override;
  // z := M~^-1 r for r of size m, or of size 3m with M~ applied to each coordinate column of the
  // interleaved layout of positions (the per-coordinate matrix A used for a 3n x 3n system, P = A (x) I3).
  void apply(const VecX& r, VecX& z) const override;
  Eigen::Index size() const;

 private:
  struct Factor;
  std::unique_ptr<Factor> factor_;
};

}  // namespace qnsim
