// Compressible Mooney-Rivlin in Valanis-Landel form:
//   a(x) = mu10 (x^2 - 1),  b(x) = mu01 (x^2 - 1),  c(J) = -(2 mu10 + 4 mu01) l(J) + lambda/2 l(J)^2,
// with l the extended log of Neo-Hookean; the log term makes the rest state stress free.
#include "core/material/models.h"

namespace qnsim {

const std::vector<MaterialParameter>& MooneyRivlin::parameters() const {
  static const std::vector<MaterialParameter> params =
      withTearing({declare(&MooneyRivlin::mu10_, "mu10", 5e4, 0.0, 1e12, "Coefficient of (I1 - 3) (Pa); Neo-Hookean has mu10 = mu/2."),
                   declare(&MooneyRivlin::mu01_, "mu01", 1e4, 0.0, 1e12, "Coefficient of (I2 - 3) (Pa)."),
                   declareLambda(&MooneyRivlin::lambda_), declareInversionJ(&MooneyRivlin::inversion_j_)});
  return params;
}

MooneyRivlin::MooneyRivlin() { resetToDefaults(); }

Scalar2 MooneyRivlin::a(double x) const { return {mu10_ * (x * x - 1.0), 2.0 * mu10_ * x, 2.0 * mu10_}; }

Scalar2 MooneyRivlin::b(double x) const { return {mu01_ * (x * x - 1.0), 2.0 * mu01_ * x, 2.0 * mu01_}; }

Scalar2 MooneyRivlin::c(double J) const {
  return logVolumeTerm(J, 2.0 * mu10_ + 4.0 * mu01_, lambda_, inversion_j_);
}

}  // namespace qnsim
