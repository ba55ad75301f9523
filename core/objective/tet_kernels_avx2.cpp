// The AVX2/FMA build of the Neo-Hookean element pass (see tet_kernels.h): CMake compiles this file with
// -mavx2 -mfma where the compiler targets x86; elsewhere nothing calls it.
// Intrinsics are always inlined and never emitted on their own, so <immintrin.h> is safe here; every
// other helper has internal linkage.
#include "core/objective/tet_kernels.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace qnsim {
namespace tet_avx2 {

#if defined(__AVX2__) && defined(__FMA__)
namespace {

#include "core/common/avx2_lanes.inc"

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

struct Vec3x4 {
  V x, y, z;
};
Vec3x4 operator-(const Vec3x4& a, const Vec3x4& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3x4 cross(const Vec3x4& a, const Vec3x4& b) {
  return {fms(a.y, b.z, a.z * b.y), fms(a.z, b.x, a.x * b.z), fms(a.x, b.y, a.y * b.x)};
}
V dot(const Vec3x4& a, const Vec3x4& b) { return fma(a.x, b.x, fma(a.y, b.y, a.z * b.z)); }

// Corner `corner` of the four lanes' tets: three masked loads (none reads past x's end), transposed.
Vec3x4 corner(const double* x, const int* const tet[4], int corner) {
  const __m256i xyz = _mm256_setr_epi64x(-1, -1, -1, 0);
  const V rows[4] = {_mm256_maskload_pd(x + 3 * tet[0][corner], xyz), _mm256_maskload_pd(x + 3 * tet[1][corner], xyz),
                     _mm256_maskload_pd(x + 3 * tet[2][corner], xyz), _mm256_maskload_pd(x + 3 * tet[3][corner], xyz)};
  V c[4];
  transpose(rows, c);
  return {c[0], c[1], c[2]};
}

// Four consecutive tets from `first` (lanes past `count` repeat the last tet and are never stored).
struct Lanes {
  int first, count, e[4];
  Lanes(int first_tet, int end) : first(first_tet), count(end - first_tet < 4 ? end - first_tet : 4) {
    for (int i = 0; i < 4; ++i) e[i] = first + (i < count ? i : count - 1);
  }
};

// The lanes' tets as element indices for gather9.
void gather9(const double* base, const Lanes& lanes, V m[9]) { gather9(base, lanes.e, m); }

V volumes(const NeoHookeanTets& tets, const Lanes& lanes) {
  return _mm256_setr_pd(tets.volume[lanes.e[0]], tets.volume[lanes.e[1]], tets.volume[lanes.e[2]], tets.volume[lanes.e[3]]);
}

// The corner forces V P Dm^-T (columns 1-3: corners 1-3; corner 0 minus their sum), 12 per tet.
void storeForces(const Vec3x4 P[3], const V r[9], V volume, const Lanes& lanes, double* force) {
  Vec3x4 H[3];  // H(:, j) = V sum_k P(:, k) Dm^-1(j, k)
  for (int j = 0; j < 3; ++j) {
    const V a = volume * r[j], b = volume * r[j + 3], c = volume * r[j + 6];
    H[j] = {fma(P[0].x, a, fma(P[1].x, b, P[2].x * c)), fma(P[0].y, a, fma(P[1].y, b, P[2].y * c)),
            fma(P[0].z, a, fma(P[1].z, b, P[2].z * c))};
  }
  const V zero = _mm256_setzero_pd();
  const Vec3x4 f0 = {zero - (H[0].x + H[1].x + H[2].x), zero - (H[0].y + H[1].y + H[2].y), zero - (H[0].z + H[1].z + H[2].z)};
  double* p[4];
  for (int i = 0; i < 4; ++i) p[i] = force + 12 * (lanes.first + i);
  const V group[3][4] = {{f0.x, f0.y, f0.z, H[0].x}, {H[0].y, H[0].z, H[1].x, H[1].y}, {H[1].z, H[2].x, H[2].y, H[2].z}};
  for (int g = 0; g < 3; ++g) {
    scatter4(group[g], p, lanes.count);
    for (int i = 0; i < 4; ++i) p[i] += 4;
  }
}

void storeStresses(const Vec3x4 P[3], const Lanes& lanes, double* stress) {
  const V m[9] = {P[0].x, P[0].y, P[0].z, P[1].x, P[1].y, P[1].z, P[2].x, P[2].y, P[2].z};
  scatter9(m, stress, lanes.first, lanes.count);
}

}  // namespace

void neoHookeanPass(const NeoHookeanTets& tets, const double* x, int begin, int end, const TetPassOutput& out) {
  const V mu = splat(tets.mu), lambda = splat(tets.lambda), J0 = splat(tets.inversion_j);
  const V inverse_J0_squared = splat(1.0 / (tets.inversion_j * tets.inversion_j)), zero = _mm256_setzero_pd();
  for (int first = begin; first < end; first += 4) {
    const Lanes lanes(first, end);
    const int* tet[4];
    for (int i = 0; i < 4; ++i) tet[i] = tets.vertices + 4 * lanes.e[i];
    V r[9];  // Dm^-1, column-major
    gather9(tets.rest_inverse, lanes, r);
    const V volume = volumes(tets, lanes);

    const Vec3x4 x0 = corner(x, tet, 0);
    const Vec3x4 d[3] = {corner(x, tet, 1) - x0, corner(x, tet, 2) - x0, corner(x, tet, 3) - x0};
    Vec3x4 F[3];  // columns: F(:, j) = sum_k Ds(:, k) Dm^-1(k, j)
    for (int j = 0; j < 3; ++j) {
      const V a = r[3 * j], b = r[3 * j + 1], c = r[3 * j + 2];
      F[j] = {fma(d[0].x, a, fma(d[1].x, b, d[2].x * c)), fma(d[0].y, a, fma(d[1].y, b, d[2].y * c)),
              fma(d[0].z, a, fma(d[1].z, b, d[2].z * c))};
    }
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
    const __m256i valid = _mm256_cmpgt_epi64(_mm256_set1_epi64x(lanes.count), _mm256_setr_epi64x(0, 1, 2, 3));
    _mm256_maskstore_pd(out.energy + first, valid, volume * psi);
    if (!out.stress && !out.force) continue;

    Vec3x4 P[3];  // P = mu F + c'(J) cof(F)
    for (int j = 0; j < 3; ++j)
      P[j] = {fma(mu, F[j].x, dc * cofactor[j].x), fma(mu, F[j].y, dc * cofactor[j].y), fma(mu, F[j].z, dc * cofactor[j].z)};
    if (out.stress) storeStresses(P, lanes, out.stress);
    if (out.force) storeForces(P, r, volume, lanes, out.force);
  }
  leaveAvx();
}

void forcesFromStresses(const NeoHookeanTets& tets, const double* stress, int begin, int end, double* force) {
  for (int first = begin; first < end; first += 4) {
    const Lanes lanes(first, end);
    V r[9], p[9];
    gather9(tets.rest_inverse, lanes, r);
    gather9(stress, lanes, p);
    const Vec3x4 P[3] = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, {p[6], p[7], p[8]}};
    storeForces(P, r, volumes(tets, lanes), lanes, force);
  }
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
void forcesFromStresses(const NeoHookeanTets&, const double*, int, int, double*) { __builtin_trap(); }
void log4(const double*, double*) { __builtin_trap(); }
#endif

}  // namespace tet_avx2
}  // namespace qnsim
