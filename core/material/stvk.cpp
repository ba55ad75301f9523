// St. Venant-Kirchhoff: Psi = mu |E|^2 + lambda/2 tr^2 E, E = (F^T F - I)/2, in Valanis-Landel form
//   a(x) = (mu/4 + lambda/8)(x^2 - 1)^2 - lambda/2 x^2 + lambda/4,  b(x) = lambda/4 x^2,  c = 0,
// so f(x) = (mu + lambda/2) x (x^2 - 1). Stress in closed form: P = F (2 mu E + lambda tr(E) I).
#include "core/material/models.h"

namespace qnsim {

const std::vector<MaterialParameter>& StVenantKirchhoff::parameters() const {
  static const std::vector<MaterialParameter> params =
      withTearing({declareMu(&StVenantKirchhoff::mu_), declareLambda(&StVenantKirchhoff::lambda_)});
  return params;
}

StVenantKirchhoff::StVenantKirchhoff() { resetToDefaults(); }

Scalar2 StVenantKirchhoff::a(double x) const {
  const double lambda = lambda_, q = 0.25 * mu_ + 0.125 * lambda_, x2 = x * x;
  return {q * (x2 - 1.0) * (x2 - 1.0) - 0.5 * lambda * x2 + 0.25 * lambda, 4.0 * q * x * (x2 - 1.0) - lambda * x,
          q * (12.0 * x2 - 4.0) - lambda};
}

Scalar2 StVenantKirchhoff::b(double x) const {
  const double lambda = lambda_;
  return {0.25 * lambda * x * x, 0.5 * lambda * x, 0.5 * lambda};
}

double StVenantKirchhoff::energyAndStress(const Mat3& F, Mat3* P) const {
  const double mu = mu_, lambda = lambda_;
  const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());
  const double trace = E.trace();
  if (P) *P = F * (2.0 * mu * E + lambda * trace * Mat3::Identity());
  return mu * E.squaredNorm() + 0.5 * lambda * trace * trace;
}

}  // namespace qnsim
