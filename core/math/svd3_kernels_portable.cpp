// The portable build (SSE2 pairs of lanes where the compiler targets x86) of the Jacobi sweeps (see svd3_kernels.h). Intrinsics are always inlined and never emitted on their own, so their headers are safe here.
#include "core/math/svd3_kernels.h"

#if defined(__AVX__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace qnsim {
namespace svd_portable {
#include "core/math/svd3_kernels.inc"
}  // namespace svd_portable
}  // namespace qnsim
