#include <algorithm>
#include <cmath>

#include "core/common/simd.h"
#include "core/material/models.h"
#include "core/material/valanis_landel.h"
#include "core/math/polar3.h"
#include "core/math/svd3.h"
#include "qnsim/material.h"

namespace qnsim {

double SolidMaterial::energyAndStress(const Mat3& F, Mat3* P) const {
  const Svd3 svd = svd3(F);
  if (P) *P = svd.U * psiGradient(*this, svd.sigma).asDiagonal() * svd.V.transpose();
  return psi(*this, svd.sigma);
}

void SolidMaterial::energiesAndStresses(const Mat3* F, int count, double* psi_out, Mat3* P) const {
  constexpr int kBlock = 16;
  Svd3 svd[kBlock];
  for (int start = 0; start < count; start += kBlock) {
    const int size = std::min(kBlock, count - start);
    svd3(F + start, size, svd);
    for (int i = 0; i < size; ++i) {
      if (!P) {
        psi_out[start + i] = psi(*this, svd[i].sigma);
        continue;
      }
      Vec3 gradient;
      psi_out[start + i] = psiAndGradient(*this, svd[i].sigma, gradient);
      P[start + i] = svd[i].U * gradient.asDiagonal() * svd[i].V.transpose();
    }
  }
}

// The vector kernel where the CPU runs it and the model has a polynomial form (a lane's result does not
// depend on the others, so one element alone gets the bits it gets in a batch); else the scalar path.
double StrainPolynomialMaterial::energyAndStress(const Mat3& F, const Mat3& R, bool have_rotation, Mat3* P) const {
  if (!have_rotation) return SolidMaterial::energyAndStress(F, P);
  if (avx2Available())
    if (const std::optional<StrainPolynomial> form = polynomialForm()) {
      double psi;
      strain_avx2::stresses(*form, F.data(), R.data(), 1, &psi, P ? P->data() : nullptr);
      return psi;
    }
  const Mat3 RtF = R.transpose() * F;  // S, symmetric up to round-off
  const Mat3 E = 0.5 * (RtF + RtF.transpose()) - Mat3::Identity();
  Mat3 G;
  const double psi = strainEnergy(E, P ? &G : nullptr);
  if (P) *P = R * G;
  return psi;
}

double StrainPolynomialMaterial::energyAndStress(const Mat3& F, Mat3* P) const {
  Mat3 R;
  const bool have_rotation = polarRotation(F, R);
  return energyAndStress(F, R, have_rotation, P);
}

// The elements with a rotation go through the vector kernel four at a time where energyAndStress would
// send them one by one (the same bits); the others, and every element without the kernel, one by one.
void StrainPolynomialMaterial::energiesAndStresses(const Mat3* F, int count, double* psi, Mat3* P) const {
  const std::optional<StrainPolynomial> form = avx2Available() ? polynomialForm() : std::nullopt;
  constexpr int kBlock = 16;
  Mat3 R[kBlock];
  bool have_rotation[kBlock];
  for (int start = 0; start < count; start += kBlock) {
    const int size = std::min(kBlock, count - start);
    polarRotations(F + start, size, R, have_rotation);
    if (form) strain_avx2::stresses(*form, F[start].data(), R[0].data(), size, psi + start, P ? P[start].data() : nullptr);
    for (int i = 0; i < size; ++i)
      if (!form || !have_rotation[i]) psi[start + i] = energyAndStress(F[start + i], R[i], have_rotation[i], P ? &P[start + i] : nullptr);
  }
}

}  // namespace qnsim
