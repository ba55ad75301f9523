#pragma once
// The lane kernel of polarRotations, compiled twice like the SVD's (svd3_kernels.h): portably and
// for AVX2, without fused multiply-adds, so both builds give the same results bit for bit, and a
// matrix gets the same rotation in a batch of any size. Only plain types cross this boundary and
// polar3_kernels.inc includes nothing.
#include "core/common/simd.h"

namespace qnsim {

// Newton's iteration X <- (X + X^-T) / 2 on Lanes matrices side by side, X[3c + r][l] = X(r, c) of
// lane l. A lane iterates while active[l] is 1 and stops (is left as it is, active 0, converged 1)
// once the squared Frobenius norm of its step is at most 1e-16: the error after a step is about half
// the square of the step before it, so the next would change nothing but round-off. steps is set to
// the number of steps taken, the most any lane took (a single lane's own count).
template <int Lanes>
struct PolarLanes {
  double X[9][Lanes];
  double active[Lanes], converged[Lanes];  // 1 or 0
  int steps;
};

constexpr int kPolarLanes = 8;  // matrices iterated side by side by polarRotations
constexpr double kPolarConverged = 1e-16;  // a lane stops once its step's squared norm is at most this
constexpr int kPolarMaxSteps = 20;

QNSIM_SIMD_BUILDS(polar_portable, polar_avx2,
    // At most 20 steps, fewer once no lane is active.
    void polarIterate(PolarLanes<kPolarLanes>& lanes);
    void polarIterate(PolarLanes<1>& lanes);)

}  // namespace qnsim
