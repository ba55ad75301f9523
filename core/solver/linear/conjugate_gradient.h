#pragma once
// Jacobi-preconditioned conjugate gradients for the paper's iterative baselines (Figs. 16, 17;
// Hestenes and Stiefel 1952): a capped number of iterations, a relative residual tolerance, and
// optionally the stop of Gast et al. 2015 on detected indefiniteness (p^T K p <= 0), which is why this
// is written out instead of using Eigen::ConjugateGradient (it has no such exit).
#include "core/common/types.h"

namespace qnsim {

struct CgResult {
  int iterations = 0;
  double relative_residual = 0;  // |b - K x| / |b|
  bool indefinite = false;       // stopped at a direction of non-positive curvature
};

// Solves K x = b from x = 0 with the preconditioner diag(K)^-1. Stops after max_iterations, at a
// relative residual <= tolerance or, with stop_on_indefinite, at the first p with p^T K p <= 0 (x is
// then the last iterate, or b itself scaled by diag(K)^-1 if that happens at once).
CgResult conjugateGradient(const SparseMatrix& K, const VecX& b, VecX& x, int max_iterations, double tolerance, bool stop_on_indefinite);

}  // namespace qnsim
