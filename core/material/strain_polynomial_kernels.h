#pragma once
// The stress of the strain-polynomial materials (corotated, ARAP, polynomial) from F and its polar
// rotation R, four elements per AVX2 step with FMA, chosen at run time by the CPU like the element
// pass's other kernels (core/common/simd.h); the portable path is StrainPolynomialMaterial's own, and
// the two agree to round-off. Only plain types cross this boundary.
namespace qnsim {

// psi(E) = sum_{k=2..6} mu_k tr(E^k) + lambda/2 tr(E)^2 of E = sym(R^T F) - I, with
// P = R G, G = dpsi/dE = sum_k k mu_k E^(k-1) + lambda tr(E) I.
struct StrainPolynomial {
  double mu[7] = {};  // mu[2..6]; mu[0] and mu[1] are unused
  double lambda = 0.0;
};

namespace strain_avx2 {
// F and R: `count` column-major 3 x 3 matrices (9 doubles each). Writes psi[i], and P (9 per element)
// when P is set. Each element goes through the same four-lane code wherever it falls in the range.
void stresses(const StrainPolynomial& form, const double* F, const double* R, int count, double* psi, double* P);
}  // namespace strain_avx2

}  // namespace qnsim
