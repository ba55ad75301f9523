// The AVX2 build: CMake compiles this file with -mavx2 (no FMA, so the results match the portable build's bit for bit) where the compiler targets x86; elsewhere it is a second portable copy, never chosen of the Jacobi sweeps (see svd3_kernels.h). Intrinsics are always inlined and never emitted on their own, so their headers are safe here.
#include "core/math/svd3_kernels.h"

#if defined(__AVX__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace qnsim {
namespace svd_avx2 {
#include "core/math/svd3_kernels.inc"
}  // namespace svd_avx2
}  // namespace qnsim
