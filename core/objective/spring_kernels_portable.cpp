// The portable build of the spring kernel (see spring_kernels.h).
#include "core/objective/spring_kernels.h"

namespace qnsim {
namespace spring_portable {
namespace {
#include "core/objective/spring_kernels.inc"
}  // namespace

void springForces(const SpringView& springs, const double* x, int begin, int end, double* energy, double* force) {
  springForcesScalar(springs, x, begin, end, energy, force);
}
}  // namespace spring_portable
}  // namespace qnsim
