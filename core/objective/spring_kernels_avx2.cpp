// The AVX2/FMA build of the spring kernel (see spring_kernels.h): CMake compiles this file with
// -mavx2 -mfma where the compiler targets x86. Elsewhere it is a second portable copy, never chosen.
// Intrinsics are always inlined and never emitted on their own, so <immintrin.h> is safe here.
#include "core/objective/spring_kernels.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace qnsim {
namespace spring_avx2 {
namespace {
#include "core/objective/spring_kernels.inc"
#if defined(__AVX2__) && defined(__FMA__)
#include "core/common/avx2_lanes.inc"
#endif
}  // namespace

#if defined(__AVX2__) && defined(__FMA__)
// Four springs per step. Each endpoint's (x, y, z) is one masked load, so no read passes the end of x;
// the four differences are transposed to one register per coordinate, and each force is stored whole
// (its three values and, but for the last spring, the next spring's first, which that store rewrites).
void springForces(const SpringView& springs, const double* x, int begin, int end, double* energy, double* force) {
  const __m256i xyz = _mm256_setr_epi64x(-1, -1, -1, 0);
  const __m256d zero = _mm256_setzero_pd(), half = _mm256_set1_pd(0.5);
  int s = begin;
  for (; s + 4 <= end; s += 4) {
    const int* v = springs.vertices + 2 * s;
    __m256d d[4];
    for (int i = 0; i < 4; ++i)
      d[i] = _mm256_sub_pd(_mm256_maskload_pd(x + 3 * v[2 * i], xyz), _mm256_maskload_pd(x + 3 * v[2 * i + 1], xyz));
    __m256d coordinate[4];  // dx = (d0.x, d1.x, d2.x, d3.x), and so on
    transpose4(d, coordinate);
    const __m256d dx = coordinate[0], dy = coordinate[1], dz = coordinate[2];
    const __m256d length = _mm256_sqrt_pd(_mm256_fmadd_pd(dx, dx, _mm256_fmadd_pd(dy, dy, _mm256_mul_pd(dz, dz))));
    const __m256d stretch = _mm256_sub_pd(length, _mm256_loadu_pd(springs.rest_length + s));
    const double* k_of = springs.region_stiffness;
    const int* r = springs.region + s;
    const char* removed = springs.removed + s;
    const __m256d k = _mm256_setr_pd(removed[0] ? 0.0 : k_of[r[0]], removed[1] ? 0.0 : k_of[r[1]],
                                     removed[2] ? 0.0 : k_of[r[2]], removed[3] ? 0.0 : k_of[r[3]]);
    const __m256d k_stretch = _mm256_mul_pd(k, stretch);
    _mm256_storeu_pd(energy + s, _mm256_mul_pd(_mm256_mul_pd(half, k_stretch), stretch));
    const __m256d positive = _mm256_cmp_pd(length, zero, _CMP_GT_OQ);
    const __m256d scale = _mm256_and_pd(positive, _mm256_div_pd(k_stretch, length));
    double* f = force + 3 * s;
    _mm256_storeu_pd(f, _mm256_mul_pd(_mm256_permute4x64_pd(scale, 0x00), d[0]));
    _mm256_storeu_pd(f + 3, _mm256_mul_pd(_mm256_permute4x64_pd(scale, 0x55), d[1]));
    _mm256_storeu_pd(f + 6, _mm256_mul_pd(_mm256_permute4x64_pd(scale, 0xAA), d[2]));
    _mm256_maskstore_pd(f + 9, xyz, _mm256_mul_pd(_mm256_permute4x64_pd(scale, 0xFF), d[3]));
  }
  springForcesScalar(springs, x, s, end, energy, force);
}
#else
void springForces(const SpringView& springs, const double* x, int begin, int end, double* energy, double* force) {
  springForcesScalar(springs, x, begin, end, energy, force);
}
#endif

}  // namespace spring_avx2
}  // namespace qnsim
