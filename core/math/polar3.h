#pragma once
// The rotation of the polar decomposition of a 3x3 matrix, without an SVD.
#include "qnsim/types.h"

namespace qnsim {

// R of F = R S (R a rotation, S symmetric positive definite) for det F >= min_det, by Newton's
// iteration X <- (X + X^-T) / 2 from X = F (Higham 1986): no square roots, quadratic convergence,
// four or five steps for the stretches of a simulation. R is then also U V^T of the inversion-aware
// SVD. Returns false, leaving R undefined, for a flatter or inverted F, or one whose iteration has not
// converged within 20 steps (stretches beyond about 10^4): callers take the SVD then.
constexpr double kPolarMinDet = 1e-3;
bool polarRotation(const Mat3& F, Mat3& R, double min_det = kPolarMinDet);
// The number of Newton steps polarRotation takes on F (0 when det F < min_det): for counting flops.
int polarSteps(const Mat3& F, double min_det = kPolarMinDet);

// The same for F[0..count) into R[0..count) and converged[0..count), faster: independent matrices
// iterate side by side. Each result is polarRotation's, bit for bit.
void polarRotations(const Mat3* F, int count, Mat3* R, bool* converged, double min_det = kPolarMinDet);

}  // namespace qnsim
