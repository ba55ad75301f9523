// The AVX2/FMA build of the element passes and of the forces from kept stresses (see tet_kernels.h):
// CMake compiles this file with -mavx2 -mfma where the compiler targets x86; elsewhere nothing calls
// it. Intrinsics are always inlined and never emitted on their own, so <immintrin.h> is safe here;
// every other helper has internal linkage.
#include "core/math/polar3_kernels.h"
#include "core/objective/tet_kernels.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace qnsim {
namespace tet_avx2 {

#if defined(__AVX2__) && defined(__FMA__)
namespace {

#include "core/common/avx2_lanes.inc"
#include "core/material/strain_lanes.inc"
#include "core/objective/tet_lanes.inc"

// log x for x > 0, the argument reduction x = 2^k m with m in [1/sqrt 2, sqrt 2) and
// log m = 2 atanh s = 2 (s + s^3/3 + ... + s^21/21), s = (m - 1)/(m + 1), |s| < 0.172: the series'
// remainder is below 1e-18 of the result. k ln 2 is added as k ln2_hi (exact: ln2_hi has 31 bits)
// plus k ln2_lo. +inf and NaN are returned as they are.
V log(V x) {
  const __m256i bits = _mm256_castpd_si256(x);
  const __m256i mantissa_mask = _mm256_set1_epi64x(0x000FFFFFFFFFFFFFLL);
  const __m256i one_bits = _mm256_set1_epi64x(0x3FF0000000000000LL);
  V m = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(bits, mantissa_mask), one_bits));  // [1, 2)
  // The biased exponent as a double: its bits put into 2^52's mantissa, then 2^52 subtracted.
  const __m256i exponent = _mm256_srli_epi64(bits, 52);
  const V two52 = splat(4503599627370496.0);
  V k = _mm256_castsi256_pd(_mm256_or_si256(exponent, _mm256_castpd_si256(two52))) - two52 - splat(1023.0);
  const V large = _mm256_cmp_pd(m, splat(1.4142135623730951), _CMP_GT_OQ);
  m = _mm256_blendv_pd(m, m * splat(0.5), large);
  k = k + _mm256_and_pd(large, splat(1.0));
  const V s = (m - splat(1.0)) / (m + splat(1.0)), z = s * s;
  V series = splat(1.0 / 21.0);
  for (int j = 19; j >= 1; j -= 2) series = fma(series, z, splat(1.0 / j));
  const V log_m = (s + s) * series;
  const V result = fma(k, splat(0.6931471803691238), fma(k, splat(1.9082149292705877e-10), log_m));
  const V finite = _mm256_cmp_pd(x, splat(__builtin_inf()), _CMP_LT_OQ);  // false for +inf and NaN
  return _mm256_blendv_pd(x, result, finite);
}

// One step of Newton's iteration X <- (X + X^-T) / 2 towards R of F = R S (polar3.h: the same
// iteration and stopping rule, here with fused multiply-adds), X^-T = cof(X) / det X, in the active
// lanes; those whose step was small enough move from active to converged.
void polarStep(Vec3x4 X[3], V& active, V& converged) {
  const Vec3x4 cofactor[3] = {cross(X[1], X[2]), cross(X[2], X[0]), cross(X[0], X[1])};
  const V det = _mm256_blendv_pd(splat(0.5), dot(X[0], cofactor[0]), active);
  const V half_inverse = splat(0.5) / det;
  V change = _mm256_setzero_pd();
  const auto update = [&](V& entry, V cofactor_entry) {
    const V next = fma(splat(0.5), entry, half_inverse * cofactor_entry), difference = next - entry;
    change = fma(difference, difference, change);
    entry = _mm256_blendv_pd(entry, next, active);
  };
  for (int j = 0; j < 3; ++j) update(X[j].x, cofactor[j].x), update(X[j].y, cofactor[j].y), update(X[j].z, cofactor[j].z);
  const V done = _mm256_and_pd(active, _mm256_cmp_pd(change, splat(kPolarConverged), _CMP_LE_OQ));
  converged = _mm256_or_pd(converged, done);
  active = _mm256_andnot_pd(done, active);
}

// R of F = R S in the four lanes: returns all-ones in the lanes whose iteration converged from
// det F >= min_det; the others' R is meaningless.
V polarRotation(const Vec3x4 F[3], V min_det, Vec3x4 R[3]) {
  for (int j = 0; j < 3; ++j) R[j] = F[j];
  V active = _mm256_cmp_pd(dot(F[0], cross(F[1], F[2])), min_det, _CMP_GE_OQ);  // false for NaN
  V converged = _mm256_setzero_pd();
  for (int step = 0; step < kPolarMaxSteps && _mm256_movemask_pd(active) != 0; ++step) polarStep(R, active, converged);
  return converged;
}

// The coefficients of the lanes' tets' regions.
LaneCoefficients coefficients(const StrainPolynomialTets& tets, const Lanes& lanes) {
  const StrainPolynomial* form[4];
  for (int i = 0; i < 4; ++i) form[i] = &tets.forms[tets.region[lanes.e[i]]];
  LaneCoefficients c;
  for (int k = 0; k < 7; ++k) c.mu[k] = _mm256_setr_pd(form[0]->mu[k], form[1]->mu[k], form[2]->mu[k], form[3]->mu[k]);
  c.lambda = _mm256_setr_pd(form[0]->lambda, form[1]->lambda, form[2]->lambda, form[3]->lambda);
  return c;
}

void columnMajor(const Vec3x4 M[3], V m[9]) {
  for (int j = 0; j < 3; ++j) m[3 * j] = M[j].x, m[3 * j + 1] = M[j].y, m[3 * j + 2] = M[j].z;
}

}  // namespace

void neoHookeanPass(const NeoHookeanTets& tets, const double* x, int begin, int end, const TetPassOutput& out) {
  const V mu = splat(tets.mu), lambda = splat(tets.lambda), J0 = splat(tets.inversion_j);
  const V inverse_J0_squared = splat(1.0 / (tets.inversion_j * tets.inversion_j)), zero = _mm256_setzero_pd();
  for (int first = begin; first < end; first += 4) {
    const Lanes lanes(first, end);
    V r[9];  // Dm^-1, column-major
    gather9(tets.geometry.rest_inverse, lanes.e, r);
    Vec3x4 F[3];
    deformationGradient(tets.geometry, x, lanes, r, F);
    const Vec3x4 cofactor[3] = {cross(F[1], F[2]), cross(F[2], F[0]), cross(F[0], F[1])};
    const V J = dot(F[0], cofactor[0]);

    // The extended log l(J) (exact log above J0, its quadratic continuation below) and c(J) of Eq. 14:
    // with Jc = max(J, J0) and delta = min(J - J0, 0), l = log Jc + delta/J0 - delta^2/(2 J0^2) and
    // l' = 1/Jc - delta/J0^2; NaN stays NaN (the operands' order makes max and min return it).
    const V Jc = _mm256_max_pd(J0, J), delta = _mm256_min_pd(zero, J - J0);
    const V l = log(Jc) + delta / J0 - splat(0.5) * delta * delta * inverse_J0_squared;
    const V dl = splat(1.0) / Jc - delta * inverse_J0_squared;
    const V dc = fms(lambda, l, mu) * dl;                       // c'(J) = (-mu + lambda l) l'
    const V volume_term = l * fms(splat(0.5) * lambda, l, mu);  // c(J) = -mu l + lambda/2 l^2
    const V squared_norm = dot(F[0], F[0]) + dot(F[1], F[1]) + dot(F[2], F[2]);
    const V psi = fma(splat(0.5) * mu, squared_norm - splat(3.0), volume_term);

    V p[9];  // P = mu F + c'(J) cof(F), column-major
    for (int j = 0; j < 3; ++j)
      p[3 * j] = fma(mu, F[j].x, dc * cofactor[j].x), p[3 * j + 1] = fma(mu, F[j].y, dc * cofactor[j].y),
      p[3 * j + 2] = fma(mu, F[j].z, dc * cofactor[j].z);
    storeOutputs(lanes, r, volumes(tets.geometry, lanes), psi, p, out);
  }
  leaveAvx();
}

int strainPolynomialPass(const StrainPolynomialTets& tets, const double* x, int begin, int end, const TetPassOutput& out,
                         int* unrotated) {
  PolynomialTerms terms;
  for (int r = 0; r < tets.regions; ++r) terms.add(tets.forms[r]);
  const V min_det = splat(tets.min_det);
  int count = 0;
  for (int first = begin; first < end; first += 4) {
    const Lanes lanes(first, end);
    V r[9];  // Dm^-1, column-major
    gather9(tets.geometry.rest_inverse, lanes.e, r);
    Vec3x4 F[3], R[3];
    deformationGradient(tets.geometry, x, lanes, r, F);
    const int rotated = _mm256_movemask_pd(polarRotation(F, min_det, R));
    for (int i = 0; i < lanes.count; ++i)
      if (!(rotated >> i & 1)) unrotated[count++] = first + i;
    V f[9], rotation[9], p[9];
    columnMajor(F, f);
    columnMajor(R, rotation);
    const V psi = strainEnergyAndStress(terms, coefficients(tets, lanes), f, rotation, p);
    storeOutputs(lanes, r, volumes(tets.geometry, lanes), psi, p, out);
  }
  leaveAvx();
  return count;
}

void forcesFromStresses(const TetGeometry& tets, const double* stress, int begin, int end, double* force) {
  for (int first = begin; first < end; first += 4) {
    const Lanes lanes(first, end);
    V r[9], p[9];
    gather9(tets.rest_inverse, lanes.e, r);
    gather9(stress, lanes.e, p);
    const Vec3x4 P[3] = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, {p[6], p[7], p[8]}};
    storeForces(P, r, volumes(tets, lanes), lanes, force);
  }
  leaveAvx();
}

void forcesFromStress(const TetGeometry& tets, int e, const double* P, double* force) {
  const Lanes lanes(e, e + 1);
  V r[9];
  gather9(tets.rest_inverse, lanes.e, r);
  const V p[9] = {splat(P[0]), splat(P[1]), splat(P[2]), splat(P[3]), splat(P[4]), splat(P[5]), splat(P[6]), splat(P[7]), splat(P[8])};
  const Vec3x4 stress[3] = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, {p[6], p[7], p[8]}};
  storeForces(stress, r, volumes(tets, lanes), lanes, force);
  leaveAvx();
}

void log4(const double* x, double* result) {
  _mm256_storeu_pd(result, log(_mm256_loadu_pd(x)));
  leaveAvx();
}

#else
// Unreachable: avx2Available() is false wherever this file is compiled without AVX2 and FMA, so
// Objective never calls these (its general path runs instead).
void neoHookeanPass(const NeoHookeanTets&, const double*, int, int, const TetPassOutput&) { __builtin_trap(); }
int strainPolynomialPass(const StrainPolynomialTets&, const double*, int, int, const TetPassOutput&, int*) { __builtin_trap(); }
void forcesFromStresses(const TetGeometry&, const double*, int, int, double*) { __builtin_trap(); }
void forcesFromStress(const TetGeometry&, int, const double*, double*) { __builtin_trap(); }
void log4(const double*, double*) { __builtin_trap(); }
#endif

}  // namespace tet_avx2
}  // namespace qnsim
