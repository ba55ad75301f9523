#pragma once
// Energy, stress and stress derivative of a Valanis-Landel material (Eq. 9) from principal stretches.
#include <array>

#include "core/math/svd3.h"
#include "qnsim/material.h"

namespace qnsim {

double psi(const SolidMaterial& m, const Vec3& s);
// psi and its gradient in one pass over the terms (the objective's hot path).
double psiAndGradient(const SolidMaterial& m, const Vec3& sigma, Vec3& gradient);
Vec3 psiGradient(const SolidMaterial& m, const Vec3& s);   // dPsi/ds_i
Mat3 psiHessian(const SolidMaterial& m, const Vec3& s);    // d2Psi/ds_i ds_j

// The stress function f(x) = dPsi/ds1 at s2 = s3 = 1 = a'(x) + 2 b'(x) + c'(x) (Eq. 10).
double stressFunction(const SolidMaterial& m, double x);

// dP/dF of an isotropic energy as its eigensystem (Teran et al. 2005; Smith et al. 2019):
// dP/dF : dF = sum_k lambda_k Q_k <Q_k, dF>, with the Q_k orthonormal 3x3 matrices:
// three "scaling" modes from the 3x3 stretch Hessian and, per pair (i, j), a "flip" mode with
// eigenvalue (psi_i - psi_j)/(s_i - s_j) and a "twist" mode with (psi_i + psi_j)/(s_i + s_j).
struct StressDerivative {
  std::array<double, 9> lambda;
  std::array<Mat3, 9> Q;
};
StressDerivative stressDerivative(const SolidMaterial& m, const Svd3& svd);

}  // namespace qnsim
