#pragma once
// Spline-based material in the spirit of Xu et al. 2015: Neo-Hookean whose a'(x) is replaced by
// mu * s(x), s a monotone cubic (PCHIP) through user control points (x_i, s_i) and linear beyond them:
//   a(x) = mu * integral_1^x s,  b = 0,  c(J) = -mu l(J) + lambda/2 l(J)^2  (l: extended log).
// s(x) = x gives Neo-Hookean exactly. s must pass through (1, 1) so that the rest state is stress free.
// Presets: "A" resists compression more than Neo-Hookean (s < x below 1), "B" resists tension more
// (s > x above 1); the paper shows its curves only as pictures, so these are our surrogates.
#include <array>
#include <string_view>
#include <vector>

#include "core/material/models.h"

namespace qnsim {

class SplineMaterial : public SolidMaterial {
 public:
  SplineMaterial();
  std::string_view model() const override { return "spline"; }
  const std::vector<MaterialParameter>& parameters() const override;
  std::unique_ptr<Material> clone() const override { return std::make_unique<SplineMaterial>(*this); }
  Scalar2 a(double x) const override;
  Scalar2 c(double x) const override;

  // Throws qnsim::Error on fewer than 2 points, non-increasing or non-finite x, or no point (1, 1).
  void setControlPoints(std::vector<Vec2> points);
  const std::vector<Vec2>& controlPoints() const { return points_; }
  // "neo_hookean", "A" or "B"; throws on another name.
  void setPreset(std::string_view name);
  static std::vector<Vec2> preset(std::string_view name);

  // The spline s and its derivative (the curve the UI edits).
  double shape(double x) const;


 protected:
  bool sameUndeclared(const Material& other) const override {
    return points_ == static_cast<const SplineMaterial&>(other).points_;
  }

 private:
  struct Eval {
    double integral, value, slope;  // integral_1^x s, s(x), s'(x)
  };
  Eval evaluate(double x) const;
  void rebuild();

  double mu_ = 0, lambda_ = 0, inversion_j_ = 0;
  std::vector<Vec2> points_;
  std::vector<double> slopes_;     // PCHIP tangents at the points
  std::vector<double> integrals_;  // integral_1^{x_i} s
  // Segment i's cubic s = c0 + c1 t + c2 t^2 + c3 t^3 in t = (x - x_i) / h_i: the Hermite form
  // multiplied out once, so that evaluating it is three short Horner chains.
  std::vector<std::array<double, 4>> cubics_;
};

}  // namespace qnsim
