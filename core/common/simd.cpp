#include "core/common/simd.h"

namespace qnsim {

bool avx2Available() {
#if defined(QNSIM_AVX2)
  static const bool available = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return available;
#else
  return false;
#endif
}

}  // namespace qnsim
