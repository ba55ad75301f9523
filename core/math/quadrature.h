#pragma once
// Composite Gauss-Legendre quadrature: exact for polynomials up to degree 9 on each panel, and
// accurate to round-off for the smooth stress functions of the materials.
#include <array>
#include <cmath>

namespace qnsim {

template <class Function>
double integrate(const Function& f, double a, double b, int panels = 64) {
  static constexpr std::array<double, 5> nodes = {0.0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640,
                                                  0.9061798459386640};
  static constexpr std::array<double, 5> weights = {0.5688888888888889, 0.4786286704993665, 0.4786286704993665,
                                                    0.2369268850561891, 0.2369268850561891};
  const double width = (b - a) / panels;
  double sum = 0.0;
  for (int p = 0; p < panels; ++p) {
    const double mid = a + (p + 0.5) * width;
    for (int i = 0; i < 5; ++i) sum += weights[i] * f(mid + 0.5 * width * nodes[i]);
  }
  return 0.5 * width * sum;
}

}  // namespace qnsim
