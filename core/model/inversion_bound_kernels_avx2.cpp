// The AVX2 build of the inversion bound's cubics (see inversion_bound_kernels.h): CMake compiles this
// file with -mavx2 and no FMA where the compiler targets x86, so each lane rounds as the scalar code
// does. Elsewhere it is a second portable copy, never chosen.
#include "core/model/inversion_bound_kernels.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace qnsim {
namespace inversion_avx2 {
namespace {
#include "core/model/inversion_bound_kernels.inc"
#if defined(__AVX2__)
#include "core/common/avx_transpose4.inc"

// det3 on four lanes: u[i], v[i], w[i] hold coordinate i of four vectors.
__m256d det3(const __m256d u[3], const __m256d v[3], const __m256d w[3]) {
  const __m256d r0 = _mm256_sub_pd(_mm256_mul_pd(v[1], w[2]), _mm256_mul_pd(v[2], w[1]));
  const __m256d r1 = _mm256_sub_pd(_mm256_mul_pd(v[2], w[0]), _mm256_mul_pd(v[0], w[2]));
  const __m256d r2 = _mm256_sub_pd(_mm256_mul_pd(v[0], w[1]), _mm256_mul_pd(v[1], w[0]));
  return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(u[0], r0), _mm256_mul_pd(u[1], r1)), _mm256_mul_pd(u[2], r2));
}

// The edges of four tets (vertex indices t, 4 per tet) at positions x: edges[k][i] holds coordinate i
// of edge k of the four. Each vertex is one masked load, so no read passes the end of x.
void tetEdges4(const int* t, const double* x, __m256d edges[3][3]) {
  const __m256i xyz = _mm256_setr_epi64x(-1, -1, -1, 0);
  for (int k = 0; k < 3; ++k) {
    __m256d rows[4];  // edge k of tet j as (x, y, z, 0)
    for (int j = 0; j < 4; ++j)
      rows[j] = _mm256_sub_pd(_mm256_maskload_pd(x + 3 * t[4 * j + k + 1], xyz), _mm256_maskload_pd(x + 3 * t[4 * j], xyz));
    __m256d columns[4];
    transpose4(rows, columns);
    for (int i = 0; i < 3; ++i) edges[k][i] = columns[i];
  }
}
#endif
}  // namespace

#if defined(__AVX2__)
void detCubics(const int* vertices, const double* x, const double* d, int begin, int end, double* c) {
  int e = begin;
  for (; e + 4 <= end; e += 4) {
    __m256d a[3][3], b[3][3];
    tetEdges4(vertices + 4 * e, x, a);
    tetEdges4(vertices + 4 * e, d, b);
    __m256d coefficients[4];  // c_k of the four tets
    coefficients[0] = det3(a[0], a[1], a[2]);
    coefficients[1] = _mm256_add_pd(_mm256_add_pd(det3(b[0], a[1], a[2]), det3(a[0], b[1], a[2])), det3(a[0], a[1], b[2]));
    coefficients[2] = _mm256_add_pd(_mm256_add_pd(det3(a[0], b[1], b[2]), det3(b[0], a[1], b[2])), det3(b[0], b[1], a[2]));
    coefficients[3] = det3(b[0], b[1], b[2]);
    __m256d per_tet[4];
    transpose4(coefficients, per_tet);
    for (int j = 0; j < 4; ++j) _mm256_storeu_pd(c + 4 * (e - begin + j), per_tet[j]);
  }
  detCubicsScalar(vertices, x, d, e, end, c + 4 * (e - begin));
}
#else
void detCubics(const int* vertices, const double* x, const double* d, int begin, int end, double* c) {
  detCubicsScalar(vertices, x, d, begin, end, c);
}
#endif

}  // namespace inversion_avx2
}  // namespace qnsim
