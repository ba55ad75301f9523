#include "core/math/polar3.h"

namespace qnsim {

bool polarRotation(const Mat3& F, Mat3& R, double min_det) {
  if (!(F.determinant() >= min_det)) return false;  // NaN included
  R = F;
  for (int step = 0; step < 20; ++step) {
    // X^-T = cof(X) / det X, with cof(X) the matrix of cofactors.
    Mat3 cofactor;
    cofactor.col(0) = R.col(1).cross(R.col(2));
    cofactor.col(1) = R.col(2).cross(R.col(0));
    cofactor.col(2) = R.col(0).cross(R.col(1));
    const double det = R.col(0).dot(cofactor.col(0));
    const Mat3 next = 0.5 * (R + cofactor / det);
    // The error after a step is about half the square of the step before it: a step below 1e-8
    // leaves an error below round-off.
    const double change = (next - R).squaredNorm();
    R = next;
    if (change <= 1e-16) return true;
  }
  return false;
}

}  // namespace qnsim
