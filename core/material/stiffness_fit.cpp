#include "core/material/stiffness_fit.h"

#include <cmath>

#include "core/common/error.h"
#include "core/material/valanis_landel.h"
#include "core/math/quadrature.h"

namespace qnsim {

double fitStiffness(const SolidMaterial& material, const Vec2& interval) {
  const double a = interval[0], b = interval[1];
  if (!(a < b)) throw error("stiffness interval [", a, ", ", b, "] is empty");
  const double numerator = integrate([&](double x) { return (x - 1.0) * stressFunction(material, x); }, a, b);
  const double denominator = (std::pow(b - 1.0, 3) - std::pow(a - 1.0, 3)) / 3.0;
  return numerator / denominator;
}

}  // namespace qnsim
