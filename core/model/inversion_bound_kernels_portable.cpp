// The portable build of the inversion bound's cubics (see inversion_bound_kernels.h).
#include "core/model/inversion_bound_kernels.h"

namespace qnsim {
namespace inversion_portable {
namespace {
#include "core/model/inversion_bound_kernels.inc"
}  // namespace

void detCubics(const int* vertices, const double* x, const double* d, int begin, int end, double* c) {
  detCubicsScalar(vertices, x, d, begin, end, c);
}
}  // namespace inversion_portable
}  // namespace qnsim
