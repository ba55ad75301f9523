#pragma once
// The roofline probe's peak kernels, each in a translation unit of its own so that it can be compiled for
// AVX2 or AVX-512 with FMA (the instructions qnsim's kernels use) without touching anything shared.
#include <cstddef>

namespace qnsim::bench {

// `iterations` steps of 12 independent chains of four-lane fused multiply-adds: 96 flops per step.
// Returns a sum of the chains so that the compiler cannot drop them. Call it only where
// avx2Available() (core/common/simd.h).
double fmaChainsAvx2(long iterations);
// The same with eight-lane fused multiply-adds: 192 flops per step. Call it only where avx512Available().
double fmaChainsAvx512(long iterations);

}  // namespace qnsim::bench
