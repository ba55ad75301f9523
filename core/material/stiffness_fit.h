#pragma once
// The stiffness k of paper Eq. 11: the slope of the least-squares line through (1, 0) that best
// approximates the stress function f (Eq. 10) over the expected stretch interval [x_start, x_end]:
//   k = integral (x - 1) f(x) dx / integral (x - 1)^2 dx.
// k is linear in the material's moduli, so spatially varying stiffness carries into L = sum V k G^T G.
#include "core/material/material.h"

namespace qnsim {

double fitStiffness(const SolidMaterial& material, const Vec2& interval);

}  // namespace qnsim
