#pragma once
// The fibre term of Fiber (material.h): Psi_fibre = kappa/2 (|F d| - 1)^2 is exactly a Projective Dynamics
// energy (kappa/2 min_{|p| = 1} |F d - p|^2), so it enters L as V kappa G_d^T G_d with G_d x = F d.
#include <array>

#include "qnsim/material.h"

namespace qnsim {

// Adds the fibre energy density to the return value and its stress to P.
double addFiberEnergyAndStress(const Fiber& fiber, const Mat3& F, Mat3* P);

// The fibre term's dP/dF as up to three orthonormal eigen-matrices e d^T (e along and across F d).
struct FiberStressDerivative {
  std::array<double, 3> lambda;
  std::array<Mat3, 3> Q;
};
FiberStressDerivative fiberStressDerivative(const Fiber& fiber, const Mat3& F);

}  // namespace qnsim
