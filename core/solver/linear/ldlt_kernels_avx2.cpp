// The AVX2/FMA build of the substitution kernels (see ldlt_kernels.h); CMake compiles this file
// alone with -mavx2 -mfma where the compiler targets x86, and defines QNSIM_LDLT_AVX2.
#include "core/solver/linear/ldlt_kernels.h"

#if defined(QNSIM_LDLT_AVX2)
namespace qnsim {
namespace ldlt_avx2 {
#include "core/solver/linear/ldlt_kernels.inc"
}  // namespace ldlt_avx2
}  // namespace qnsim
#else
namespace qnsim::ldlt_avx2 {
void forward(const LdltView& L, const int* columns, int count, const int* slot, LdltRow* update) {
  ldlt_portable::forward(L, columns, count, slot, update);
}
void backward(const LdltView& L, const int* columns, int count) { ldlt_portable::backward(L, columns, count); }
}  // namespace qnsim::ldlt_avx2
#endif
