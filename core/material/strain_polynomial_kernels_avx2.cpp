// The AVX2/FMA build of the strain-polynomial stress (see strain_polynomial_kernels.h): CMake compiles
// this file with -mavx2 -mfma where the compiler targets x86; elsewhere nothing calls it. Every helper
// has internal linkage.
#include "core/material/strain_polynomial_kernels.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace qnsim {
namespace strain_avx2 {

#if defined(__AVX2__) && defined(__FMA__)
namespace {

#include "core/common/avx2_lanes.inc"
#include "core/material/strain_lanes.inc"

}  // namespace

void stresses(const StrainPolynomial& form, const double* F, const double* R, int count, double* psi, double* P) {
  PolynomialTerms terms;
  terms.add(form);
  const LaneCoefficients c = splatCoefficients(form);
  for (int first = 0; first < count; first += 4) {
    const int lanes = count - first < 4 ? count - first : 4;
    int e[4];  // lanes past the range repeat its last element and are not stored
    for (int i = 0; i < 4; ++i) e[i] = first + (i < lanes ? i : lanes - 1);
    V f[9], r[9], p[9];  // column-major: f[row + 3 column]
    gather9(F, e, f);
    gather9(R, e, r);
    const V energy = strainEnergyAndStress(terms, c, f, r, P ? p : nullptr);
    storeLanes(psi + first, lanes, energy);
    if (P) scatter9(p, P, first, lanes);
  }
  leaveAvx();
}

#else
// Unreachable: avx2Available() is false wherever this file is compiled without AVX2 and FMA, so the
// materials never call it (their scalar path runs instead).
void stresses(const StrainPolynomial&, const double*, const double*, int, double*, double*) { __builtin_trap(); }
#endif

}  // namespace strain_avx2
}  // namespace qnsim
