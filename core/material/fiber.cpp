#include "core/material/fiber.h"

#include <algorithm>

namespace qnsim {

double addFiberEnergyAndStress(const Fiber& fiber, const Mat3& F, Mat3* P) {
  if (fiber.kappa == 0.0) return 0.0;
  const Vec3 f = F * fiber.direction;
  const double length = f.norm(), stretch = length - 1.0;
  if (P && length > 0.0) *P += fiber.kappa * stretch / length * f * fiber.direction.transpose();
  return 0.5 * fiber.kappa * stretch * stretch;
}

// With f = F d: d2Psi = kappa [ f^ f^T + (1 - 1/|f|)(I - f^ f^T) ] (x) d d^T.
FiberStressDerivative fiberStressDerivative(const Fiber& fiber, const Mat3& F) {
  FiberStressDerivative out;
  const Vec3& d = fiber.direction;
  Vec3 along = F * d;
  const double length = along.norm();
  along = length > 0.0 ? Vec3(along / length) : Vec3::UnitX();
  const Vec3 across1 = along.unitOrthogonal(), across2 = along.cross(across1);
  out.lambda = {fiber.kappa, fiber.kappa * (1.0 - 1.0 / std::max(length, 1e-12)), 0.0};
  out.lambda[2] = out.lambda[1];
  out.Q = {along * d.transpose(), across1 * d.transpose(), across2 * d.transpose()};
  return out;
}

}  // namespace qnsim
