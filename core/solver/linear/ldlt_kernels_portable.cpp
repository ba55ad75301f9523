// The portable build of the substitution kernels (see ldlt_kernels.h).
#include "core/solver/linear/ldlt_kernels.h"

namespace qnsim {
namespace ldlt_portable {
#include "core/solver/linear/ldlt_kernels.inc"
}  // namespace ldlt_portable

}  // namespace qnsim
