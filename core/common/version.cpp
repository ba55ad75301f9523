#include "qnsim/version.h"

#include "core/common/simd.h"

namespace qnsim {

const char* version() { return QNSIM_VERSION; }
const char* sparseBackend() { return QNSIM_SPARSE_BACKEND; }  // set by core/CMakeLists.txt
const char* vectorKernels() { return avx512Available() ? "AVX-512+FMA" : avx2Available() ? "AVX2+FMA" : "portable"; }

}  // namespace qnsim
