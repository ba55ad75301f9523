// The portable build of the polar iteration (see polar3_kernels.h).
#include "core/math/polar3_kernels.h"

namespace qnsim {
namespace polar_portable {
#include "core/math/polar3_kernels.inc"
}  // namespace polar_portable
}  // namespace qnsim
