// The AVX-512 build of the element passes and of the forces from kept stresses (tet_kernels.h,
// tet_kernels.inc), eight tets per step: CMake compiles this file with -mavx512f -mfma where the
// compiler targets x86; elsewhere nothing calls it. As tet_kernels_avx2.cpp otherwise.
#include "core/math/polar3_kernels.h"
#include "core/objective/tet_kernels.h"

#if defined(__AVX512F__) && defined(__FMA__)
#include "core/common/avx512_immintrin.h"
#endif

namespace qnsim {
namespace tet_avx512 {

#if defined(__AVX512F__) && defined(__FMA__)
namespace {
#include "core/common/avx512_lanes.inc"
}  // namespace
#include "core/objective/tet_kernels.inc"
#else
const TetKernels kernels = {};  // unreachable: avx512Available() is false without the instructions
#endif

}  // namespace tet_avx512
}  // namespace qnsim
