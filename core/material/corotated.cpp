// Linear corotated elasticity (Sifakis and Barbic 2012) in Valanis-Landel form:
//   mu sum (s_i - 1)^2 + lambda/2 (sum s_i - 3)^2 = sum a(s_i) + sum b(s_i s_j) with
//   a(x) = (mu + lambda/2)(x - 1)^2 - 2 lambda (x - 1) - lambda,  b(x) = lambda x,  f(x) = (2 mu + lambda)(x - 1).
#include "core/material/models.h"

namespace qnsim {

const std::vector<MaterialParameter>& Corotated::parameters() const {
  static const std::vector<MaterialParameter> params = {kMuParameter, kLambdaParameter};
  return params;
}

Corotated::Corotated() { resetToDefaults(); }

Scalar2 Corotated::a(double x) const {
  const double mu = values_[0], lambda = values_[1], d = x - 1.0;
  return {(mu + 0.5 * lambda) * d * d - 2.0 * lambda * d - lambda, (2.0 * mu + lambda) * d - 2.0 * lambda, 2.0 * mu + lambda};
}

Scalar2 Corotated::b(double x) const { return {values_[1] * x, values_[1], 0.0}; }

}  // namespace qnsim
