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

}  // namespace qnsim
