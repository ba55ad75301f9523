#include "core/material/stiffness_fit.h"

#include <algorithm>
#include <cmath>

#include "core/material/valanis_landel.h"
#include "core/math/quadrature.h"
#include "qnsim/error.h"

namespace qnsim {

namespace {

// The slope of the least-squares line through (1, 0) of a stress over the interval (Eq. 11's measure).
template <class Stress>
double fitSlope(const Stress& stress, const Vec2& interval) {
  const double a = interval[0], b = interval[1];
  if (!(a < b)) throw error("stiffness interval [", a, ", ", b, "] is empty");
  const double numerator = integrate([&](double x) { return (x - 1.0) * stress(x); }, a, b);
  const double denominator = (std::pow(b - 1.0, 3) - std::pow(a - 1.0, 3)) / 3.0;
  return numerator / denominator;
}

}  // namespace

double fitStiffness(const SolidMaterial& material, const Vec2& interval) {
  return fitSlope([&](double x) { return stressFunction(material, x); }, interval);
}

double solidStiffness(const SolidMaterial& material, const Vec2& interval) {
  const std::optional<double> weight = material.projectiveWeight();
  return weight ? *weight : fitStiffness(material, interval);
}

LameFit fitLame(const SolidMaterial& material, const Vec2& interval) {
  const double k = solidStiffness(material, interval);
  const double lambda = fitSlope([&](double x) { return psiGradient(material, Vec3(x, 1.0, 1.0))[1]; }, interval);
  return {std::max(0.5 * (k - lambda), 0.0), std::max(lambda, 0.0)};
}

namespace {

// integral over [p, q] of (x - c)(x - d).
double productIntegral(double p, double q, double c, double d) {
  const auto primitive = [&](double x) { return x * x * x / 3.0 - (c + d) * x * x / 2.0 + c * d * x; };
  return primitive(q) - primitive(p);
}

struct Trial {
  StrainLimitFit fit;
  double residual = INFINITY;  // integral (f~ - f)^2
};

// The fit of the stress f over [a, b]; ff = integral f^2 and f1 = integral (x - 1) f do not depend on the interval.
struct FitProblem {
  const SolidMaterial& material;
  double a, b, ff, f1;

  // integral (x - clamp(x, lo, hi)) f: the strain-limit basis is zero inside [lo, hi].
  double limitMoment(double lo, double hi) const {
    const auto below = [&](double x) { return (x - lo) * stressFunction(material, x); };
    const auto above = [&](double x) { return (x - hi) * stressFunction(material, x); };
    return integrate(below, a, lo, 16) + integrate(above, hi, b, 16);
  }

  // Normal equations of the basis x - 1 (w_a) and x - clamp(x, lo, hi) (w_s).
  Trial weights(double lo, double hi) const {
    const double A11 = productIntegral(a, b, 1, 1), A22 = productIntegral(a, lo, lo, lo) + productIntegral(hi, b, hi, hi);
    const double A12 = productIntegral(a, lo, 1, lo) + productIntegral(hi, b, 1, hi), f2 = limitMoment(lo, hi);
    const double det = A11 * A22 - A12 * A12;
    Trial t;
    if (!(det > 1e-12 * A11 * A22)) return t;  // the two bases coincide (lo = hi = 1) or one vanishes
    t.fit = {(f1 * A22 - f2 * A12) / det, (A11 * f2 - A12 * f1) / det, lo, hi, 0.0};
    if (t.fit.arap_weight < 0 || t.fit.limit_weight < 0) return t;
    t.residual = ff - t.fit.arap_weight * f1 - t.fit.limit_weight * f2;
    return t;
  }

  // The best of an (n + 1) x (n + 1) grid of intervals with lo in [lo0, lo1] and hi in [hi0, hi1].
  Trial search(double lo0, double lo1, double hi0, double hi1, int n) const {
    Trial best;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j <= n; ++j) {
        const Trial t = weights(lo0 + (lo1 - lo0) * i / n, hi0 + (hi1 - hi0) * j / n);
        if (t.residual < best.residual) best = t;
      }
    return best;
  }
};

}  // namespace

StrainLimitFit fitStrainLimit(const SolidMaterial& material, const Vec2& interval) {
  const double a = interval[0], b = interval[1];
  if (!(a < 1.0 && 1.0 < b)) throw error("strain-limit fit: the interval [", a, ", ", b, "] must contain 1 inside");
  const auto f = [&](double x) { return stressFunction(material, x); };
  const FitProblem p{material, a, b, integrate([&](double x) { return f(x) * f(x); }, a, b),
                     integrate([&](double x) { return (x - 1.0) * f(x); }, a, b)};
  constexpr int kCoarse = 40, kFine = 20;
  Trial best = p.search(a, 1.0, 1.0, b, kCoarse);
  double lo_step = (1.0 - a) / kCoarse, hi_step = (b - 1.0) / kCoarse;
  for (int pass = 0; pass < 3 && std::isfinite(best.residual); ++pass) {  // each pass narrows the grid tenfold
    const double lo = best.fit.sigma_min, hi = best.fit.sigma_max;
    const Trial finer = p.search(std::max(a, lo - lo_step), std::min(1.0, lo + lo_step), std::max(1.0, hi - hi_step),
                                 std::min(b, hi + hi_step), kFine);
    if (finer.residual < best.residual) best = finer;
    lo_step *= 2.0 / kFine, hi_step *= 2.0 / kFine;
  }
  if (!std::isfinite(best.residual)) throw error("strain-limit fit: no interval gives non-negative weights on [", a, ", ", b, "]");
  best.fit.rel_error = p.ff > 0 ? std::sqrt(std::max(0.0, best.residual) / p.ff) : 0.0;
  return best.fit;
}

}  // namespace qnsim
