#include "core/solver/linear/conjugate_gradient.h"

#include <cmath>

namespace qnsim {

CgResult conjugateGradient(const SparseMatrix& K, const VecX& b, VecX& x, int max_iterations, double tolerance, bool stop_on_indefinite) {
  const VecX jacobi = K.diagonal().cwiseAbs().cwiseMax(1e-300).cwiseInverse();
  x.setZero(b.size());
  VecX r = b, z = jacobi.cwiseProduct(r), p = z, Kp(b.size());
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
    z = jacobi.cwiseProduct(r);
    const double rz_next = r.dot(z);
    p = z + (rz_next / rz) * p;
    rz = rz_next;
    result.iterations = k + 1;
    result.relative_residual = r.norm() / b_norm;
  }
  return result;
}

}  // namespace qnsim
