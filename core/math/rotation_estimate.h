#pragma once
// The rotational part of a deformation gradient F, tracked per element across frames (the PBFE
// dissertation of docs/pbd.md, Sec. 3.4, "spin-based rotation tracking", in the form of Mueller, Bender,
// Chentanez and Macklin 2016, "A robust method to extract the rotational part of deformations"). Each
// iteration turns the estimate R by the small rotation
//   omega = sum_j r_j x f_j / |sum_j r_j . f_j|        (r_j, f_j the columns of R and F),
// applied on the left (a world-frame omega, as working through the dissertation's Alg. 1 showed it must
// be): the dissertation's update with the scalar tr(R^T F) in place of its pseudo-inertia J0. It always returns a true rotation and
// converges, linearly, to the R maximising tr(R^T F) over SO(3): the polar rotation of F, and for an
// inverted F the rotation U V^T of the inversion-aware SVD (svd3.h). Warm-started from the previous
// frame's R, one iteration per frame follows a turning element closely; a cold start is far off.
#include "qnsim/types.h"

namespace qnsim {

// Refines q towards the rotation of F in at most max_iterations updates, stopping early once the
// update's angle is at most `tolerance` (radians). Returns the number of updates made.
int refineRotation(const Mat3& F, Eigen::Quaterniond& q, int max_iterations, double tolerance = 0.0);

// The rotation of F from the inversion-aware SVD, U V^T: the converged estimate, for a start without history.
Eigen::Quaterniond svdRotation(const Mat3& F);

}  // namespace qnsim
