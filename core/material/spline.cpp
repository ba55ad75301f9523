#include "core/material/spline.h"

#include <algorithm>
#include <cmath>

#include "core/material/models.h"
#include "qnsim/error.h"

namespace qnsim {

const std::vector<MaterialParameter>& SplineMaterial::parameters() const {
  static const std::vector<MaterialParameter> params =
      withTearing({declare(&SplineMaterial::mu_, "mu", 1e5, 0.0, 1e12, "Scale of the spline stress term (Pa): a'(x) = mu s(x)."),
                   declareLambda(&SplineMaterial::lambda_), declareInversionJ(&SplineMaterial::inversion_j_)});
  return params;
}

SplineMaterial::SplineMaterial() {
  resetToDefaults();
  setPreset("neo_hookean");
}

std::vector<Vec2> SplineMaterial::preset(std::string_view name) {
  if (name == "neo_hookean") return {{0.25, 0.25}, {0.5, 0.5}, {0.75, 0.75}, {1, 1}, {1.5, 1.5}, {2, 2}, {3, 3}};
  if (name == "A") return {{0.25, -1.0}, {0.5, -0.1}, {0.75, 0.55}, {1, 1}, {1.5, 1.5}, {2, 2}, {3, 3}};
  if (name == "B") return {{0.25, 0.25}, {0.5, 0.5}, {0.75, 0.75}, {1, 1}, {1.25, 1.6}, {1.5, 2.6}, {2, 5.5}, {3, 12}};
  throw error("spline preset '", name, "' is unknown (known: neo_hookean, A, B)");
}

void SplineMaterial::setPreset(std::string_view name) { setControlPoints(preset(name)); }

void SplineMaterial::setControlPoints(std::vector<Vec2> points) {
  if (points.size() < 2) throw error("spline material: needs at least 2 control points, got ", points.size());
  bool has_rest = false;
  for (size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite()) throw error("spline material: control point ", i, " is not finite");
    if (i > 0 && !(points[i].x() > points[i - 1].x()))
      throw error("spline material: control point ", i, " has x = ", points[i].x(), ", not greater than the previous x");
    if (points[i].x() == 1.0 && points[i].y() == 1.0) has_rest = true;
  }
  if (!has_rest) throw error("spline material: the curve must pass through the control point (1, 1) (stress-free rest state)");
  points_ = std::move(points);
  rebuild();
}

// Fritsch-Carlson monotone tangents, each segment's cubic, then the running integral of s from x = 1
// to each point.
void SplineMaterial::rebuild() {
  const size_t n = points_.size();
  std::vector<double> secant(n - 1);
  for (size_t i = 0; i + 1 < n; ++i)
    secant[i] = (points_[i + 1].y() - points_[i].y()) / (points_[i + 1].x() - points_[i].x());
  slopes_.assign(n, 0.0);
  slopes_.front() = secant.front();
  slopes_.back() = secant.back();
  for (size_t i = 1; i + 1 < n; ++i) {
    if (secant[i - 1] * secant[i] <= 0.0) continue;
    const double h0 = points_[i].x() - points_[i - 1].x(), h1 = points_[i + 1].x() - points_[i].x();
    const double w1 = 2 * h1 + h0, w2 = h1 + 2 * h0;
    slopes_[i] = (w1 + w2) / (w1 / secant[i - 1] + w2 / secant[i]);
  }
  cubics_.resize(n - 1);
  for (size_t i = 0; i + 1 < n; ++i) {
    const double h = points_[i + 1].x() - points_[i].x(), y0 = points_[i].y(), y1 = points_[i + 1].y();
    const double m0 = h * slopes_[i], m1 = h * slopes_[i + 1];
    cubics_[i] = {y0, m0, 3.0 * (y1 - y0) - 2.0 * m0 - m1, 2.0 * (y0 - y1) + m0 + m1};
  }
  integrals_.assign(n, 0.0);
  for (size_t i = 1; i < n; ++i) {  // the integral of segment i - 1's cubic over t in [0, 1], times h
    const double h = points_[i].x() - points_[i - 1].x();
    const auto& c = cubics_[i - 1];
    integrals_[i] = integrals_[i - 1] + h * (c[0] + 0.5 * c[1] + c[2] / 3.0 + 0.25 * c[3]);
  }
  const double at_rest = evaluate(1.0).integral;  // shift so that the integral starts at x = 1
  for (double& v : integrals_) v -= at_rest;
}

SplineMaterial::Eval SplineMaterial::evaluate(double x) const {
  const Vec2 &first = points_.front(), &last = points_.back();
  if (x <= first.x() || x >= last.x()) {  // linear continuation with the end tangent
    const bool low = x <= first.x();
    const Vec2& p = low ? first : last;
    const double m = low ? slopes_.front() : slopes_.back(), d = x - p.x();
    return {(low ? integrals_.front() : integrals_.back()) + p.y() * d + 0.5 * m * d * d, p.y() + m * d, m};
  }
  const size_t i = std::upper_bound(points_.begin(), points_.end(), x, [](double v, const Vec2& p) { return v < p.x(); }) -
                   points_.begin() - 1;
  const double h = points_[i + 1].x() - points_[i].x(), t = (x - points_[i].x()) / h;
  const auto& c = cubics_[i];
  return {integrals_[i] + h * t * (c[0] + t * (0.5 * c[1] + t * (c[2] / 3.0 + t * (0.25 * c[3])))),
          c[0] + t * (c[1] + t * (c[2] + t * c[3])), (c[1] + t * (2.0 * c[2] + t * (3.0 * c[3]))) / h};
}

double SplineMaterial::shape(double x) const { return evaluate(x).value; }

Scalar2 SplineMaterial::a(double x) const {
  const Eval e = evaluate(x);
  return {mu_ * e.integral, mu_ * e.value, mu_ * e.slope};
}

Scalar2 SplineMaterial::c(double J) const { return logVolumeTerm(J, mu_, lambda_, inversion_j_); }

}  // namespace qnsim
