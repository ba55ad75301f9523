#pragma once
// The Neo-Hookean element pass of Objective in one loop (gather the corners, F = Ds Dm^-1, the energy,
// P and the corner forces), four tets per AVX2 step with FMA, chosen at run time by the CPU like the
// spring kernel; the portable path is Objective's general one (NeoHookean::energyAndStress), so the
// two agree to round-off. Only plain types cross this boundary and the kernel's file includes no
// shared header's inline functions, so none is ever compiled with the wider instructions.
#include "core/common/simd.h"

namespace qnsim {

struct NeoHookeanTets {
  const int* vertices;         // 4 per tet
  const double* rest_inverse;  // Dm^-1, 9 per tet, column-major
  const double* volume;        // V, 1 per tet
  double mu, lambda, inversion_j;  // the material's (NeoHookean, Eq. 14 with log continued below J0)
};

// Where the pass writes, indexed by tet: energy[e] = V psi(F) always; P (9, column-major) at
// stress + 9e when stress is set; the four corner forces V P Dm^-T (12: corner 0's x, y, z first) at
// force + 12e when force is set.
struct TetPassOutput {
  double* energy;
  double* stress;
  double* force;
};

namespace tet_avx2 {
// Tets [begin, end), all present and of one Neo-Hookean region. Each tet goes through the same
// four-lane code whatever its place in the range, so results do not depend on how a loop splits it.
void neoHookeanPass(const NeoHookeanTets& tets, const double* x, int begin, int end, const TetPassOutput& out);
// The corner forces of stresses P kept by neoHookeanPass (stress + 9e), by the same code as its own
// force output, so the two give the same bits. Uses tets' rest_inverse and volume only.
void forcesFromStresses(const NeoHookeanTets& tets, const double* stress, int begin, int end, double* force);
// log of four values (x > 0, or +inf or NaN, which it returns as std::log does); for the tests.
void log4(const double* x, double* result);
}  // namespace tet_avx2

}  // namespace qnsim
