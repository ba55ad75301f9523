// Fixed corotated elasticity (Stomakhin et al. 2012) in Valanis-Landel form:
//   mu sum (s_i - 1)^2 + lambda/2 (s1 s2 s3 - 1)^2 = sum a(s_i) + c(s1 s2 s3) with
//   a(x) = mu (x - 1)^2,  c(x) = lambda/2 (x - 1)^2.
#include "core/material/models.h"

namespace qnsim {

const std::vector<MaterialParameter>& FixedCorotated::parameters() const {
  static const std::vector<MaterialParameter> params = {declareMu(&FixedCorotated::mu_), declareLambda(&FixedCorotated::lambda_)};
  return params;
}

FixedCorotated::FixedCorotated() { resetToDefaults(); }

Scalar2 FixedCorotated::a(double x) const { return {mu_ * (x - 1.0) * (x - 1.0), 2.0 * mu_ * (x - 1.0), 2.0 * mu_}; }

Scalar2 FixedCorotated::c(double x) const { return {0.5 * lambda_ * (x - 1.0) * (x - 1.0), lambda_ * (x - 1.0), lambda_}; }

}  // namespace qnsim
