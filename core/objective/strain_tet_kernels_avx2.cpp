// The AVX2/FMA build of the strain-polynomial element pass (see tet_kernels.h): CMake compiles this
// file with -mavx2 -mfma where the compiler targets x86; elsewhere nothing calls it. Every helper has
// internal linkage.
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

#else
// Unreachable: avx2Available() is false wherever this file is compiled without AVX2 and FMA, so
// Objective never calls it (its general path runs instead).
int strainPolynomialPass(const StrainPolynomialTets&, const double*, int, int, const TetPassOutput&, int*) { __builtin_trap(); }
#endif

}  // namespace tet_avx2
}  // namespace qnsim
