#include <algorithm>
#include <cmath>

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

double StrainPolynomialMaterial::energyAndStress(const Mat3& F, const Mat3& R, bool have_rotation, Mat3* P) const {
  if (!have_rotation) return SolidMaterial::energyAndStress(F, P);
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

void StrainPolynomialMaterial::energiesAndStresses(const Mat3* F, int count, double* psi, Mat3* P) const {
  constexpr int kBlock = 16;
  Mat3 R[kBlock];
  bool have_rotation[kBlock];
  for (int start = 0; start < count; start += kBlock) {
    const int size = std::min(kBlock, count - start);
    polarRotations(F + start, size, R, have_rotation);
    for (int i = 0; i < size; ++i) psi[start + i] = energyAndStress(F[start + i], R[i], have_rotation[i], P ? &P[start + i] : nullptr);
  }
}

}  // namespace qnsim
