#pragma once
// Kernels that pay for wider vectors (the linear solve's substitutions, the spring loop) are compiled
// twice, portably and for AVX2 with FMA, in translation units that share no inline function with the
// rest of the build; the CPU chooses between them at run time.
namespace qnsim {

// Whether this CPU runs the AVX2/FMA kernels (and this build has them).
bool avx2Available();

}  // namespace qnsim
