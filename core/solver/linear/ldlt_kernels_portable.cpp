// The portable build of the substitution kernels (see ldlt_kernels.h).
#include "core/solver/linear/ldlt_kernels.h"

namespace qnsim {
namespace ldlt_portable {
#include "core/solver/linear/ldlt_kernels.inc"
}  // namespace ldlt_portable

bool ldltAvx2Available() {
#if defined(QNSIM_LDLT_AVX2)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

}  // namespace qnsim
