// Polynomial material (Xu et al. 2015): a(x) = sum_{k=2..6} mu_k (x - 1)^k, b = c = 0.
// The paper's jiggly squirrel uses mu4 only: its stiffness at rest is zero, which is why k comes
// from the fit of Eq. 11 (k = 0.6 mu4 on [0.5, 1.5]) and not from the second derivative.
#include "core/material/models.h"

namespace qnsim {

const std::vector<MaterialParameter>& Polynomial::parameters() const {
  static const std::vector<MaterialParameter> params =
      withTearing({declare(&Polynomial::mu2_, "mu2", 0.0, 0.0, 1e12, "Coefficient of (x - 1)^2 (Pa)."),
                   declare(&Polynomial::mu3_, "mu3", 0.0, -1e12, 1e12, "Coefficient of (x - 1)^3 (Pa)."),
                   declare(&Polynomial::mu4_, "mu4", 1e5, 0.0, 1e12, "Coefficient of (x - 1)^4 (Pa): the paper's mu."),
                   declare(&Polynomial::mu5_, "mu5", 0.0, -1e12, 1e12, "Coefficient of (x - 1)^5 (Pa)."),
                   declare(&Polynomial::mu6_, "mu6", 0.0, 0.0, 1e12, "Coefficient of (x - 1)^6 (Pa).")});
  return params;
}

Polynomial::Polynomial() { resetToDefaults(); }

Scalar2 Polynomial::a(double x) const {
  double power[7] = {1.0};  // power[k] = (x - 1)^k
  for (int k = 1; k <= 6; ++k) power[k] = power[k - 1] * (x - 1.0);
  const double coefficient[7] = {0.0, 0.0, mu2_, mu3_, mu4_, mu5_, mu6_};
  Scalar2 out;
  for (int k = 2; k <= 6; ++k) {
    const double mu = coefficient[k];
    out.v += mu * power[k];
    out.d1 += mu * k * power[k - 1];
    out.d2 += mu * k * (k - 1) * power[k - 2];
  }
  return out;
}

namespace {

// A B for symmetric A and B that commute (powers of one matrix): the product is symmetric, so only
// its upper triangle is computed.
Mat3 symmetricProduct(const Mat3& A, const Mat3& B) {
  Mat3 C;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) C(i, j) = C(j, i) = A(i, 0) * B(0, j) + A(i, 1) * B(1, j) + A(i, 2) * B(2, j);
  return C;
}

}  // namespace

std::optional<StrainPolynomial> Polynomial::polynomialForm() const {
  return StrainPolynomial{{0.0, 0.0, mu2_, mu3_, mu4_, mu5_, mu6_}, 0.0};
}

// sum_k mu_k tr(E^k), and G = sum_k k mu_k E^(k-1), up to the highest nonzero coefficient. E is
// symmetric (solid_material.cpp), so tr(E^k) = <E^(k-1), E> (Frobenius): E^k itself is never formed,
// and each power before it is one symmetric product.
double Polynomial::strainEnergy(const Mat3& E, Mat3* G) const {
  const double coefficient[7] = {0.0, 0.0, mu2_, mu3_, mu4_, mu5_, mu6_};
  int degree = 6;
  while (degree > 2 && coefficient[degree] == 0.0) --degree;
  Mat3 power = E;  // E^(k-1)
  double psi = 0.0;
  if (G) G->setZero();
  for (int k = 2; k <= degree; ++k) {
    if (k > 2) power = symmetricProduct(power, E);
    const double mu = coefficient[k];
    if (mu == 0.0) continue;
    psi += mu * power.cwiseProduct(E).sum();
    if (G) *G += k * mu * power;
  }
  return psi;
}

}  // namespace qnsim
