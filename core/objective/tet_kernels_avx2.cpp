// The AVX2/FMA build of the element passes and of the forces from kept stresses (tet_kernels.h,
// tet_kernels.inc): CMake compiles this file with -mavx2 -mfma where the compiler targets x86;
// elsewhere nothing calls it. Intrinsics are always inlined and never emitted on their own, so
// <immintrin.h> is safe here; every other helper has internal linkage.
#include "core/math/polar3_kernels.h"
#include "core/objective/tet_kernels.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace qnsim {
namespace tet_avx2 {

#if defined(__AVX2__) && defined(__FMA__)
namespace {
#include "core/common/avx2_lanes.inc"
}  // namespace
#include "core/objective/tet_kernels.inc"
#else
const TetKernels kernels = {};  // unreachable: avx2Available() is false without the instructions
#endif

}  // namespace tet_avx2
}  // namespace qnsim
