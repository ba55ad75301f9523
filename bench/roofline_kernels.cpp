// Compiled with -mavx2 -mfma where the compiler targets x86 (bench/CMakeLists.txt); the probe runs it
// only where the CPU has them (core/common/simd.h).
#include "bench/roofline_kernels.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace qnsim::bench {

double fmaChainsAvx2(long iterations) {
#if defined(__AVX2__) && defined(__FMA__)
  constexpr int kChains = 12;  // enough to cover an FMA's latency on two pipes
  __m256d acc[kChains];
  for (int k = 0; k < kChains; ++k) acc[k] = _mm256_set1_pd(1.0 + 1e-3 * k);
  const __m256d a = _mm256_set1_pd(0.999999), b = _mm256_set1_pd(1e-7);
  for (long i = 0; i < iterations; ++i)
    for (int k = 0; k < kChains; ++k) acc[k] = _mm256_fmadd_pd(acc[k], a, b);
  __m256d sum = acc[0];
  for (int k = 1; k < kChains; ++k) sum = _mm256_add_pd(sum, acc[k]);
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, sum);
  _mm256_zeroupper();
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
#else
  // Unreachable: avx2Available() is false wherever this file is compiled without AVX2 and FMA, and the
  // probe then runs multiplyAddChains instead.
  (void)iterations;
  __builtin_trap();
#endif
}

}  // namespace qnsim::bench
