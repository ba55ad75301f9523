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

bool avx512Available() {
#if defined(QNSIM_AVX512)
  static const bool available = [] {
    const char* choice = std::getenv("QNSIM_SIMD");
    if (choice && std::strcmp(choice, "avx2") == 0) return false;
    return avx2Available() && __builtin_cpu_supports("avx512f");
  }();
  return available;
#else
  return false;
#endif
}

}  // namespace qnsim
