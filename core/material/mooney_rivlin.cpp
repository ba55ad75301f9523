// Compressible Mooney-Rivlin in Valanis-Landel form:
//   a(x) = mu10 (x^2 - 1),  b(x) = mu01 (x^2 - 1),  c(J) = -(2 mu10 + 4 mu01) l(J) + lambda/2 l(J)^2,
// with l the extended log of Neo-Hookean; the log term makes the rest state stress free.
#include "core/material/models.h"

namespace qnsim {

const std::vector<MaterialParameter>& MooneyRivlin::parameters() const {
  static const std::vector<MaterialParameter> params = {
      {"mu10", 5e4, 0.0, 1e12, "Coefficient of (I1 - 3) (Pa); Neo-Hookean has mu10 = mu/2."},
      {"mu01", 1e4, 0.0, 1e12, "Coefficient of (I2 - 3) (Pa)."},
      kLambdaParameter,
      {"inversion_j", 0.1, 1e-3, 0.9, "Volume ratio J below which log J is continued by a quadratic (finite energy when inverted)."}};
  return params;
}

MooneyRivlin::MooneyRivlin() { resetToDefaults(); }

Scalar2 MooneyRivlin::a(double x) const { return {values_[0] * (x * x - 1.0), 2.0 * values_[0] * x, 2.0 * values_[0]}; }

Scalar2 MooneyRivlin::b(double x) const { return {values_[1] * (x * x - 1.0), 2.0 * values_[1] * x, 2.0 * values_[1]}; }

Scalar2 MooneyRivlin::c(double J) const {
  return logVolumeTerm(J, 2.0 * values_[0] + 4.0 * values_[1], values_[2], values_[3]);
}

}  // namespace qnsim
