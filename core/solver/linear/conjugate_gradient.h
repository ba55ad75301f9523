#pragma once
// Preconditioned conjugate gradients for the paper's iterative baselines (Figs. 16, 17; Hestenes and
// Stiefel 1952): a capped number of iterations, a relative residual tolerance, and optionally the stop
// of Gast et al. 2015 on detected indefiniteness (p^T K p <= 0), which is why this is written out
// instead of using Eigen::ConjugateGradient (it has no such exit).
#include "qnsim/types.h"

namespace qnsim {

struct CgResult {
  int iterations = 0;
  double relative_residual = 0;  // |b - K x| / |b|
  bool indefinite = false;       // stopped at a direction of non-positive curvature
};

// z := P^-1 r for a symmetric positive definite P that approximates K.
class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  virtual void apply(const VecX& r, VecX& z) const = 0;
};

// P = |diag(K)| (Jacobi; absolute values so that P stays positive for an indefinite K).
class JacobiPreconditioner final : public Preconditioner {
 public:
  explicit JacobiPreconditioner(const SparseMatrix& K);
  void apply(const VecX& r, VecX& z) const override { z = inverse_diagonal_.cwiseProduct(r); }

 private:
  VecX inverse_diagonal_;
};

// Solves K x = b from x = 0 with the preconditioner P. Stops after max_iterations, at a relative
// residual <= tolerance or, with stop_on_indefinite, at the first p with p^T K p <= 0 (x is then the
// last iterate, or P^-1 b if that happens at once). For SPD K and P every iterate is a descent
// direction for b = -grad g.
CgResult conjugateGradient(const SparseMatrix& K, const VecX& b, VecX& x, const Preconditioner& P, int max_iterations, double tolerance,
                           bool stop_on_indefinite);
// The same with the Jacobi preconditioner of K.
CgResult conjugateGradient(const SparseMatrix& K, const VecX& b, VecX& x, int max_iterations, double tolerance, bool stop_on_indefinite);

}  // namespace qnsim
