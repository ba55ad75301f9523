// Neo-Hookean (paper Eq. 14): Psi = mu/2 (tr F^T F - 3) - mu log J + lambda/2 log^2 J, i.e.
//   a(x) = mu/2 (x^2 - 1),  b = 0,  c(J) = -mu l(J) + lambda/2 l(J)^2,
// where l is log continued below J0 by a quadratic (extendedLog), so inverted elements have finite
// energy and a restoring stress. With P = mu F + c'(J) cof(F) no SVD or inverse is needed.
#include <algorithm>
#include <cmath>

#include "core/material/models.h"

namespace qnsim {

Scalar2 extendedLog(double J, double J0) {
  if (J >= J0) return {std::log(J), 1.0 / J, -1.0 / (J * J)};
  const double d = J - J0;
  return {std::log(J0) + d / J0 - 0.5 * d * d / (J0 * J0), 1.0 / J0 - d / (J0 * J0), -1.0 / (J0 * J0)};
}

Scalar2 logVolumeTerm(double J, double rest, double lambda, double J0) {
  const Scalar2 l = extendedLog(J, J0);
  const double slope = -rest + lambda * l.v;
  return {-rest * l.v + 0.5 * lambda * l.v * l.v, slope * l.d1, lambda * l.d1 * l.d1 + slope * l.d2};
}

const std::vector<MaterialParameter>& NeoHookean::parameters() const {
  static const std::vector<MaterialParameter> params =
      withTearing({declareMu(&NeoHookean::mu_), declareLambda(&NeoHookean::lambda_), declareInversionJ(&NeoHookean::inversion_j_)});
  return params;
}

NeoHookean::NeoHookean() { resetToDefaults(); }

Scalar2 NeoHookean::a(double x) const {
  return {0.5 * mu_ * (x * x - 1.0), mu_ * x, mu_};
}

Scalar2 NeoHookean::c(double J) const { return logVolumeTerm(J, mu_, lambda_, inversion_j_); }

double NeoHookean::energyAndStress(const Mat3& F, Mat3* P) const {
  const Scalar2 cJ = c(F.determinant());
  if (P) {
    Mat3 cofactor;
    cofactor << F.col(1).cross(F.col(2)), F.col(2).cross(F.col(0)), F.col(0).cross(F.col(1));
    *P = mu_ * F + cJ.d1 * cofactor;
  }
  return 0.5 * mu_ * (F.squaredNorm() - 3.0) + cJ.v;
}

}  // namespace qnsim
