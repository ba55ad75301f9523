// The AVX2 build (CMake compiles this file with -mavx2, no FMA, where the compiler targets x86; elsewhere it is a second portable copy, never chosen) of the polar iteration (see polar3_kernels.h).
#include "core/math/polar3_kernels.h"

namespace qnsim {
namespace polar_avx2 {
#include "core/math/polar3_kernels.inc"
}  // namespace polar_avx2
}  // namespace qnsim
