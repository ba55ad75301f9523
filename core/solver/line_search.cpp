#include "core/solver/line_search.h"

#include <algorithm>
#include <cmath>

namespace qnsim {
namespace {

class WolfeSearch {
 public:
  WolfeSearch(const LineFunction& phi, const LinePoint& start, double c1, double c2, int max_trials)
      : phi_(phi), start_(start), c1_(c1), c2_(c2), max_trials_(max_trials), best_(start) {}

  LineSearchResult run() {
    LinePoint previous = start_;
    for (double alpha = 1.0; trials_ < max_trials_; alpha = std::min(2.0 * alpha, kMaxStep)) {  // Alg. 3.5
      const LinePoint p = evaluate(alpha);
      if (!sufficient(p) || (previous.alpha > 0 && p.value >= previous.value)) return zoom(previous, p);
      if (curvature(p)) return done(p);
      if (p.slope >= 0) return zoom(p, previous);
      if (alpha == kMaxStep) break;
      previous = p;
    }
    return done(best_, false);
  }

 private:
  static constexpr double kMaxStep = 64.0;

  // Alg. 3.6: lo satisfies sufficient decrease and is the lowest so far; the minimiser lies between lo and hi.
  LineSearchResult zoom(LinePoint lo, LinePoint hi) {
    while (trials_ < max_trials_) {
      const LinePoint p = evaluate(interpolate(lo, hi));
      if (!sufficient(p) || p.value >= lo.value) {
        hi = p;
      } else {
        if (curvature(p)) return done(p);
        if (p.slope * (hi.alpha - lo.alpha) >= 0) hi = lo;
        lo = p;
      }
    }
    return done(best_, false);
  }

  // The minimiser of the quadratic through phi(lo), phi'(lo), phi(hi), kept 10 % inside the bracket.
  static double interpolate(const LinePoint& lo, const LinePoint& hi) {
    const double width = hi.alpha - lo.alpha;
    const double curvature = hi.value - lo.value - lo.slope * width;
    double alpha = curvature > 0 ? lo.alpha - lo.slope * width * width / (2.0 * curvature) : 0.5 * (lo.alpha + hi.alpha);
    const double a = std::min(lo.alpha, hi.alpha), b = std::max(lo.alpha, hi.alpha), margin = 0.1 * (b - a);
    if (!std::isfinite(alpha)) alpha = 0.5 * (a + b);
    return std::clamp(alpha, a + margin, b - margin);
  }

  LinePoint evaluate(double alpha) {
    const LinePoint p = phi_(alpha);
    ++trials_;
    if (better(p, best_)) best_ = p;
    return p;
  }
  // Sufficient decrease first, then the lower value (alpha = 0, the start, has neither).
  bool better(const LinePoint& p, const LinePoint& q) const {
    if (sufficient(p) != sufficient(q)) return sufficient(p);
    return p.value < q.value;
  }
  bool sufficient(const LinePoint& p) const {
    return p.alpha > 0 && std::isfinite(p.value) && p.value <= start_.value + c1_ * p.alpha * start_.slope;
  }
  bool curvature(const LinePoint& p) const { return std::abs(p.slope) <= -c2_ * start_.slope; }
  LineSearchResult done(const LinePoint& p, bool wolfe = true) const { return {p, trials_, wolfe}; }

  const LineFunction& phi_;
  LinePoint start_;
  double c1_, c2_;
  int max_trials_, trials_ = 0;
  LinePoint best_;  // the best point seen: sufficient decrease first, then the lowest value
};

}  // namespace

LineSearchResult strongWolfe(const LineFunction& phi, const LinePoint& start, double c1, double c2, int max_trials) {
  return WolfeSearch(phi, start, c1, c2, max_trials).run();
}

double interpolatedBacktrack(const LinePoint& start, const LinePoint& rejected, const LinePoint* previous) {
  const double a1 = rejected.alpha, r1 = rejected.value - start.value - start.slope * a1;  // phi minus its tangent at 0
  double next = -start.slope * a1 * a1 / (2.0 * r1);  // N-W Eq. 3.57
  if (previous) {  // N-W Eq. 3.58: phi(0) + phi'(0) a + b a^2 + c a^3 through both rejected trials
    const double a0 = previous->alpha, r0 = previous->value - start.value - start.slope * a0;
    const double scale = 1.0 / (a0 * a0 * a1 * a1 * (a1 - a0));
    const double c = scale * (a0 * a0 * r1 - a1 * a1 * r0), b = scale * (-a0 * a0 * a0 * r1 + a1 * a1 * a1 * r0);
    const double discriminant = b * b - 3.0 * c * start.slope;
    if (std::abs(c) > 1e-300 && discriminant >= 0) next = (-b + std::sqrt(discriminant)) / (3.0 * c);
  }
  if (!std::isfinite(next)) next = 0.5 * a1;  // an overflowing trial, or a degenerate fit
  return std::clamp(next, 0.1 * a1, 0.5 * a1);
}

}  // namespace qnsim
