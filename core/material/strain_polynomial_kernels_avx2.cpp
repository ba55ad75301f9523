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

using Sym = V[3][3];  // a symmetric 3 x 3 matrix, both triangles filled

// C = A B for symmetric A and B that commute (powers of one matrix): C is symmetric.
void symmetricProduct(const Sym& A, const Sym& B, Sym& C) {
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) C[i][j] = C[j][i] = fma(A[i][0], B[0][j], fma(A[i][1], B[1][j], A[i][2] * B[2][j]));
}

}  // namespace

void stresses(const StrainPolynomial& form, const double* F, const double* R, int count, double* psi, double* P) {
  int degree = 6;
  while (degree > 2 && form.mu[degree] == 0.0) --degree;
  for (int first = 0; first < count; first += 4) {
    const int lanes = count - first < 4 ? count - first : 4;
    int e[4];  // lanes past the range repeat its last element and are not stored
    for (int i = 0; i < 4; ++i) e[i] = first + (i < lanes ? i : lanes - 1);
    V f[9], r[9];  // column-major: f[row + 3 column]
    gather9(F, e, f);
    gather9(R, e, r);
    Sym E;  // sym(R^T F) - I, with (R^T F)(i, j) = sum_k R(k, i) F(k, j)
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) {
        const V s_ij = fma(r[3 * i], f[3 * j], fma(r[3 * i + 1], f[3 * j + 1], r[3 * i + 2] * f[3 * j + 2]));
        const V s_ji = fma(r[3 * j], f[3 * i], fma(r[3 * j + 1], f[3 * i + 1], r[3 * j + 2] * f[3 * i + 2]));
        E[i][j] = E[j][i] = i == j ? s_ij - splat(1.0) : splat(0.5) * (s_ij + s_ji);
      }
    Sym power, next, G;  // power = E^(k-1)
    V energy = _mm256_setzero_pd();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) power[i][j] = E[i][j], G[i][j] = _mm256_setzero_pd();
    for (int k = 2; k <= degree; ++k) {
      if (k > 2) {
        symmetricProduct(power, E, next);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) power[i][j] = next[i][j];
      }
      if (form.mu[k] == 0.0) continue;
      V trace_power = _mm256_setzero_pd();  // tr(E^k) = <E^(k-1), E>
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) trace_power = fma(power[i][j], E[i][j], trace_power);
      energy = fma(splat(form.mu[k]), trace_power, energy);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) G[i][j] = fma(splat(k * form.mu[k]), power[i][j], G[i][j]);
    }
    if (form.lambda != 0.0) {
      const V trace = E[0][0] + E[1][1] + E[2][2];
      energy = fma(splat(0.5 * form.lambda) * trace, trace, energy);
      for (int i = 0; i < 3; ++i) G[i][i] = fma(splat(form.lambda), trace, G[i][i]);
    }
    const __m256i valid = _mm256_cmpgt_epi64(_mm256_set1_epi64x(lanes), _mm256_setr_epi64x(0, 1, 2, 3));
    _mm256_maskstore_pd(psi + first, valid, energy);
    if (!P) continue;
    V p[9];  // P = R G: P(row, column) = sum_k R(row, k) G(k, column)
    for (int column = 0; column < 3; ++column)
      for (int row = 0; row < 3; ++row)
        p[row + 3 * column] = fma(r[row], G[0][column], fma(r[row + 3], G[1][column], r[row + 6] * G[2][column]));
    scatter9(p, P, first, lanes);
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
