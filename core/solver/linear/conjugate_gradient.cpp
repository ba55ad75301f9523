#include "core/solver/linear/conjugate_gradient.h"

#include <cmath>

namespace qnsim {

JacobiPreconditioner::JacobiPreconditioner(const SparseMatrix& K) : inverse_diagonal_(K.diagonal().cwiseAbs().cwiseMax(1e-300).cwiseInverse()) {}

CgResult conjugateGradient(const SparseMatrix& K, const VecX& b, VecX& x, const Preconditioner& P, int max_iterations, double tolerance,
                           bool stop_on_indefinite) {
  x.setZero(b.size());
  VecX r = b, z, Kp(b.size());
  P.apply(r, z);
  VecX p = z;
  double rz = r.dot(z);
  const double b_norm = b.norm();
  CgResult result;
  result.relative_residual = b_norm > 0 ? 1.0 : 0.0;
  for (int k = 0; k < max_iterations && result.relative_residual > tolerance; ++k) {
    Kp.noalias() = K * p;
    const double curvature = p.dot(Kp);
    if (!(curvature > 0)) {  // indefinite (or broken down): Gast et al. stop here
      result.indefinite = true;
      if (stop_on_indefinite) {
        if (k == 0) x = z;  // the preconditioned right-hand side: still a descent direction for b = -grad g
        return result;
      }
      break;
    }
    const double alpha = rz / curvature;
    x += alpha * p;
    r -= alpha * Kp;
    P.apply(r, z);
    const double rz_next = r.dot(z);
    p = z + (rz_next / rz) * p;
    rz = rz_next;
    result.iterations = k + 1;
    result.relative_residual = r.norm() / b_norm;
  }
  return result;
}

CgResult conjugateGradient(const SparseMatrix& K, const VecX& b, VecX& x, int max_iterations, double tolerance, bool stop_on_indefinite) {
  return conjugateGradient(K, b, x, JacobiPreconditioner(K), max_iterations, tolerance, stop_on_indefinite);
}

}  // namespace qnsim
