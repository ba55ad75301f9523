#include "core/material/valanis_landel.h"

#include <Eigen/Eigenvalues>
#include <cmath>

namespace qnsim {
namespace {

constexpr int kPairs[3][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}};  // (i, j, other)

// (h(x) - h(y)) / (x - y) for h = the first derivative of a term, falling back to h'' at the midpoint
// when x and y are too close for the quotient to be accurate.
template <class Term>
double dividedDifference(const Term& term, double x, double y) {
  if (std::abs(x - y) > 1e-5 * std::max(1.0, std::abs(x))) return (term(x).d1 - term(y).d1) / (x - y);
  return term(0.5 * (x + y)).d2;
}

// Keeps |d| away from zero with its sign: the twist eigenvalue is singular where s_i + s_j = 0.
double safeDenominator(double d) {
  constexpr double eps = 1e-8;
  return std::abs(d) > eps ? d : std::copysign(eps, d == 0.0 ? 1.0 : d);
}

}  // namespace

double psi(const SolidMaterial& m, const Vec3& s) {
  return m.a(s[0]).v + m.a(s[1]).v + m.a(s[2]).v + m.b(s[0] * s[1]).v + m.b(s[1] * s[2]).v + m.b(s[0] * s[2]).v +
         m.c(s[0] * s[1] * s[2]).v;
}

double psiAndGradient(const SolidMaterial& m, const Vec3& s, Vec3& g) {
  // Each term once: a(s_i), b(s_i s_j) for the three pairs, c(J).
  const Scalar2 a[3] = {m.a(s[0]), m.a(s[1]), m.a(s[2])};
  const Scalar2 b01 = m.b(s[0] * s[1]), b12 = m.b(s[1] * s[2]), b02 = m.b(s[0] * s[2]);
  const Scalar2 c = m.c(s[0] * s[1] * s[2]);
  g[0] = a[0].d1 + s[1] * b01.d1 + s[2] * b02.d1 + s[1] * s[2] * c.d1;
  g[1] = a[1].d1 + s[0] * b01.d1 + s[2] * b12.d1 + s[0] * s[2] * c.d1;
  g[2] = a[2].d1 + s[1] * b12.d1 + s[0] * b02.d1 + s[0] * s[1] * c.d1;
  return a[0].v + a[1].v + a[2].v + b01.v + b12.v + b02.v + c.v;
}

Vec3 psiGradient(const SolidMaterial& m, const Vec3& s) {
  Vec3 g;
  psiAndGradient(m, s, g);
  return g;
}

Mat3 psiHessian(const SolidMaterial& m, const Vec3& s) {
  const Scalar2 cJ = m.c(s[0] * s[1] * s[2]);
  Mat3 H;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    H(i, i) = m.a(s[i]).d2 + s[j] * s[j] * m.b(s[i] * s[j]).d2 + s[k] * s[k] * m.b(s[i] * s[k]).d2 +
              s[j] * s[j] * s[k] * s[k] * cJ.d2;
  }
  for (const auto& pair : kPairs) {
    const int i = pair[0], j = pair[1], k = pair[2];
    const Scalar2 bij = m.b(s[i] * s[j]);
    H(i, j) = H(j, i) = bij.d1 + s[i] * s[j] * bij.d2 + s[k] * cJ.d1 + s[i] * s[j] * s[k] * s[k] * cJ.d2;
  }
  return H;
}

double stressFunction(const SolidMaterial& m, double x) { return m.a(x).d1 + 2.0 * m.b(x).d1 + m.c(x).d1; }

StressDerivative stressDerivative(const SolidMaterial& m, const Svd3& svd) {
  const Vec3& s = svd.sigma;
  const Vec3 g = psiGradient(m, s);
  const double J = s[0] * s[1] * s[2], cJ = m.c(J).d1;
  StressDerivative out;
  Eigen::SelfAdjointEigenSolver<Mat3> scaling(psiHessian(m, s));
  for (int k = 0; k < 3; ++k) {
    out.lambda[k] = scaling.eigenvalues()[k];
    out.Q[k] = svd.U * scaling.eigenvectors().col(k).asDiagonal() * svd.V.transpose();
  }
  const auto a = [&m](double x) { return m.a(x); };
  const auto b = [&m](double x) { return m.b(x); };
  int slot = 3;
  for (const auto& pair : kPairs) {
    const int i = pair[0], j = pair[1], k = pair[2];
    // (psi_i - psi_j)/(s_i - s_j), expanded so that no difference of nearly equal numbers is divided.
    const double flip = dividedDifference(a, s[i], s[j]) - m.b(s[i] * s[j]).d1 +
                        s[k] * s[k] * dividedDifference(b, s[i] * s[k], s[j] * s[k]) - s[k] * cJ;
    const double twist = (g[i] + g[j]) / safeDenominator(s[i] + s[j]);
    Mat3 E = Mat3::Zero();
    E(i, j) = E(j, i) = std::sqrt(0.5);
    out.lambda[slot] = flip;
    out.Q[slot++] = svd.U * E * svd.V.transpose();
    E(j, i) = -E(j, i);
    out.lambda[slot] = twist;
    out.Q[slot++] = svd.U * E * svd.V.transpose();
  }
  return out;
}

}  // namespace qnsim
