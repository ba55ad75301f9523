#pragma once
// The stiffness k of paper Eq. 11: the slope of the least-squares line through (1, 0) that best
// approximates the stress function f (Eq. 10) over the expected stretch interval [x_start, x_end]:
//   k = integral (x - 1) f(x) dx / integral (x - 1)^2 dx.
// k is linear in the material's moduli, so spatially varying stiffness carries into L = sum V k G^T G.
#include "qnsim/material.h"

namespace qnsim {

double fitStiffness(const SolidMaterial& material, const Vec2& interval);

// A solid's weight k in L: a Projective Dynamics energy's own constraint weights (exact, so PD stays
// PD), otherwise the fit of Eq. 11.
double solidStiffness(const SolidMaterial& material, const Vec2& interval);

// The Lame constants mu, lambda of the fixed-corotated energy mu |F - R|^2 + lambda/2 (det F - 1)^2 that
// best matches `material` over [x_start, x_end] in the measure of Eq. 11: 2 mu + lambda is the solid's k
// (solidStiffness: the slope of the uniaxial stress f(x) = dPsi/ds1 at (x, 1, 1)), and lambda the slope of
// the lateral stress dPsi/ds2 at (x, 1, 1). Exact for corotated, and for fixed-corotated on an interval
// symmetric about 1; negative values (no such material here) are clamped to 0. xpbd's compliances.
struct LameFit {
  double mu = 0, lambda = 0;
};
LameFit fitLame(const SolidMaterial& material, const Vec2& interval);

// The pd_strain_limit material that best approximates `material` (S2 Fig. 11): the weights and the
// interval whose piecewise-linear stress function
//   f~(x) = w_a (x - 1) + w_s (x - clamp(x, s_min, s_max))
// is closest to f (Eq. 10) in least squares over [x_start, x_end], the same measure as Eq. 11. For
// each interval the weights are a 2 x 2 linear least-squares problem (kept if both are >= 0, as PD
// needs); the interval is searched on a grid and refined. Throws qnsim::Error unless x_start < 1 < x_end.
struct StrainLimitFit {
  double arap_weight = 0, limit_weight = 0, sigma_min = 1, sigma_max = 1;
  double rel_error = 0;  // sqrt(integral (f~ - f)^2 / integral f^2)
};
StrainLimitFit fitStrainLimit(const SolidMaterial& material, const Vec2& interval);

}  // namespace qnsim
