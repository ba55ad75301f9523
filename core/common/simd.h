#pragma once
// Kernels that pay for wider vectors (the linear solve's substitutions, the spring loop) are compiled
// twice, portably and for AVX2 with FMA, in translation units that share no inline function with the
// rest of the build; the CPU chooses between them at run time. The element passes have a third build,
// for AVX-512.
namespace qnsim {

// Whether this process runs the AVX2/FMA kernels: the build has them, the CPU runs them, and the
// environment variable QNSIM_SIMD is not "portable" (which keeps every kernel on its portable build).
bool avx2Available();
// Whether the element passes run their AVX-512 build: AVX2 kernels run, the build has it, the CPU runs
// AVX-512F, and QNSIM_SIMD is not "avx2" (which keeps them on AVX2, for comparison).
bool avx512Available();

// Declares a kernel's functions in the namespaces of both its builds.
#define QNSIM_SIMD_BUILDS(portable, avx2, ...) \
  namespace portable {                          \
  __VA_ARGS__                                   \
  }                                             \
  namespace avx2 {                              \
  __VA_ARGS__                                   \
  }

}  // namespace qnsim
