// As-rigid-as-possible: Psi = mu |F - R|^2 = mu sum (s_i - 1)^2, the Projective Dynamics "strain"
// energy with stiffness k = 2 mu (so Psi = k/2 min_{R in SO(3)} |F - R|^2, paper Eq. 1): the stretch
// projection below with the interval [1, 1], which pd_strain_limit widens.
#include <algorithm>

#include "core/material/models.h"
#include "core/math/svd3.h"

namespace qnsim {

Scalar2 stretchLimitTerm(double x, double w, double lo, double hi) {
  const double d = x - std::clamp(x, lo, hi);
  // On a bound the stiffer side: the second derivative jumps from 0 to w there.
  return {0.5 * w * d * d, w * d, x <= lo || x >= hi ? w : 0.0};
}

Mat3 projectStretches(const Mat3& F, double lo, double hi) {
  const Svd3 svd = svd3(F);
  const Vec3 clamped = svd.sigma.cwiseMax(lo).cwiseMin(hi);
  return svd.U * clamped.asDiagonal() * svd.V.transpose();
}

const std::vector<MaterialParameter>& Arap::parameters() const {
  static const std::vector<MaterialParameter> params = withTearing({declareMu(&Arap::mu_)});
  return params;
}

Arap::Arap() { resetToDefaults(); }

Scalar2 Arap::a(double x) const { return stretchLimitTerm(x, 2.0 * mu_, 1.0, 1.0); }

std::optional<StrainPolynomial> Arap::polynomialForm() const {
  StrainPolynomial form;
  form.mu[2] = mu_;
  return form;
}

double Arap::strainEnergy(const Mat3& E, Mat3* G) const {  // mu tr(E^2)
  if (G) *G = 2.0 * mu_ * E;
  return mu_ * E.squaredNorm();
}

}  // namespace qnsim
