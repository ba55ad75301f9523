#include "core/common/simd.h"

#include <cstdlib>
#include <cstring>

namespace qnsim {

bool avx2Available() {
#if defined(QNSIM_AVX2)
  static const bool available = [] {
    const char* choice = std::getenv("QNSIM_SIMD");
    if (choice && std::strcmp(choice, "portable") == 0) return false;
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return available;
#else
  return false;
#endif
}

}  // namespace qnsim
