#include <algorithm>
#include <cmath>

#include "core/material/material.h"
#include "core/material/valanis_landel.h"
#include "core/math/svd3.h"

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

}  // namespace qnsim
