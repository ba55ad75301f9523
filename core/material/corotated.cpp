// Linear corotated elasticity (Sifakis and Barbic 2012) in Valanis-Landel form:
//   mu sum (s_i - 1)^2 + lambda/2 (sum s_i - 3)^2 = sum a(s_i) + sum b(s_i s_j) with
//   a(x) = (mu + lambda/2)(x - 1)^2 - 2 lambda (x - 1) - lambda,  b(x) = lambda x,  f(x) = (2 mu + lambda)(x - 1).
#include "core/material/models.h"

namespace qnsim {

const std::vector<MaterialParameter>& Corotated::parameters() const {
  static const std::vector<MaterialParameter> params = withTearing({declareMu(&Corotated::mu_), declareLambda(&Corotated::lambda_)});
  return params;
}

Corotated::Corotated() { resetToDefaults(); }

Scalar2 Corotated::a(double x) const {
  const double d = x - 1.0;
  return {(mu_ + 0.5 * lambda_) * d * d - 2.0 * lambda_ * d - lambda_, (2.0 * mu_ + lambda_) * d - 2.0 * lambda_, 2.0 * mu_ + lambda_};
}

Scalar2 Corotated::b(double x) const { return {lambda_ * x, lambda_, 0.0}; }

// mu tr(E^2) + lambda/2 tr^2(E), the same sum of a and b in the stretches.
std::optional<StrainPolynomial> Corotated::polynomialForm() const {
  StrainPolynomial form;
  form.mu[2] = mu_, form.lambda = lambda_;
  return form;
}

double Corotated::strainEnergy(const Mat3& E, Mat3* G) const {
  const double trace = E.trace();
  if (G) *G = 2.0 * mu_ * E + lambda_ * trace * Mat3::Identity();
  return mu_ * E.squaredNorm() + 0.5 * lambda_ * trace * trace;
}

}  // namespace qnsim
