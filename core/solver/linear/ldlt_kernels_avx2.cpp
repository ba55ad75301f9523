// The AVX2/FMA build of the substitution kernels (see ldlt_kernels.h): CMake compiles this file with
// -mavx2 -mfma where the compiler targets x86. Elsewhere it is a second portable copy, never chosen
// (avx2Available() is false there).
#include "core/solver/linear/ldlt_kernels.h"

namespace qnsim {
namespace ldlt_avx2 {
#include "core/solver/linear/ldlt_kernels.inc"
}  // namespace ldlt_avx2
}  // namespace qnsim
