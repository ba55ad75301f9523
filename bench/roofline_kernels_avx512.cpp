// Compiled with -mavx512f -mfma where the compiler targets x86 (bench/CMakeLists.txt); the probe runs it
// only where qnsim's own AVX-512 kernels run (core/common/simd.h).
#include "bench/roofline_kernels.h"

#if defined(__AVX512F__) && defined(__FMA__)
#include "core/common/avx512_immintrin.h"
#endif

namespace qnsim::bench {

#if defined(__AVX512F__) && defined(__FMA__)
namespace {
#include "core/common/avx512_lanes.inc"
}  // namespace
namespace {
#include "bench/roofline_chains.inc"  // after the primitives it uses
}  // namespace

double fmaChainsAvx512(long iterations) { return fmaChains(iterations); }
#else
// Unreachable: avx512Available() is false wherever this file is compiled without AVX-512F and FMA.
double fmaChainsAvx512(long) { __builtin_trap(); }
#endif

}  // namespace qnsim::bench
