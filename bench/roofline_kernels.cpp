// Compiled with -mavx2 -mfma where the compiler targets x86 (bench/CMakeLists.txt); the probe runs it
// only where the CPU has them (core/common/simd.h).
#include "bench/roofline_kernels.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace qnsim::bench {

#if defined(__AVX2__) && defined(__FMA__)
namespace {
#include "core/common/avx2_lanes.inc"
}  // namespace
namespace {
#include "bench/roofline_chains.inc"  // after the primitives it uses
}  // namespace

double fmaChainsAvx2(long iterations) { return fmaChains(iterations); }
#else
// Unreachable: avx2Available() is false wherever this file is compiled without AVX2 and FMA, and the
// probe then runs multiplyAddChains instead.
double fmaChainsAvx2(long) { __builtin_trap(); }
#endif

}  // namespace qnsim::bench
