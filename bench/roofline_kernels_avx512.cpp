// Compiled with -mavx512f -mfma where the compiler targets x86 (bench/CMakeLists.txt); the probe runs it
// only where qnsim's own AVX-512 kernels run (core/common/simd.h).
#include "bench/roofline_kernels.h"

#if defined(__AVX512F__) && defined(__FMA__)
#include "core/common/avx512_immintrin.h"
#endif

namespace qnsim::bench {

double fmaChainsAvx512(long iterations) {
#if defined(__AVX512F__) && defined(__FMA__)
  constexpr int kChains = 12;  // enough to cover an FMA's latency on two pipes
  __m512d acc[kChains];
  for (int k = 0; k < kChains; ++k) acc[k] = _mm512_set1_pd(1.0 + 1e-3 * k);
  const __m512d a = _mm512_set1_pd(0.999999), b = _mm512_set1_pd(1e-7);
  for (long i = 0; i < iterations; ++i)
    for (int k = 0; k < kChains; ++k) acc[k] = _mm512_fmadd_pd(acc[k], a, b);
  __m512d sum = acc[0];
  for (int k = 1; k < kChains; ++k) sum = _mm512_add_pd(sum, acc[k]);
  const double total = _mm512_reduce_add_pd(sum);
  _mm256_zeroupper();
  return total;
#else
  // Unreachable: avx512Available() is false wherever this file is compiled without AVX-512F and FMA.
  (void)iterations;
  __builtin_trap();
#endif
}

}  // namespace qnsim::bench
