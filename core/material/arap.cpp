// As-rigid-as-possible: Psi = mu |F - R|^2 = mu sum (s_i - 1)^2, the Projective Dynamics "strain"
// energy with stiffness k = 2 mu (so Psi = k/2 min_{R in SO(3)} |F - R|^2, paper Eq. 1).
#include "core/material/models.h"

namespace qnsim {

const std::vector<MaterialParameter>& Arap::parameters() const {
  static const std::vector<MaterialParameter> params = {declareMu(&Arap::mu_)};
  return params;
}

Arap::Arap() { resetToDefaults(); }

Scalar2 Arap::a(double x) const {
  const double d = x - 1.0;
  return {mu_ * d * d, 2.0 * mu_ * d, 2.0 * mu_};
}

}  // namespace qnsim
