#pragma once
// The element pass of Objective in one loop per material family (gather the corners, F = Ds Dm^-1, the
// energy, P and the corner forces), four tets per AVX2 step or eight per AVX-512 step, with FMA, chosen
// at run time by the CPU: Neo-Hookean in closed form, and the strain-polynomial materials (corotated,
// ARAP, polynomial) with the polar rotation by Newton's iteration in the same registers. The portable
// path is Objective's general one (the material's energyAndStress), so the two agree to round-off.
// Only plain types cross this boundary and the kernels' files include no shared header's inline
// functions, so none is ever compiled with the wider instructions.
#include "core/common/simd.h"
#include "core/material/strain_polynomial_kernels.h"

namespace qnsim {

// The tets of a range, indexed by tet e.
struct TetGeometry {
  const int* vertices;         // 4 per tet
  const double* rest_inverse;  // Dm^-1, 9 per tet, column-major
  const double* volume;        // V, 1 per tet
};

struct NeoHookeanTets {
  TetGeometry geometry;
  double mu, lambda, inversion_j;  // the material's (NeoHookean, Eq. 14 with log continued below J0)
};

// Tets of several regions may share a pass: each takes the form of its region.
struct StrainPolynomialTets {
  TetGeometry geometry;
  const int* region;               // per tet
  const StrainPolynomial* forms;   // per region; all zero for regions that never come to this pass
  int regions;
  // The polar iteration starts only where det F >= min_det (polar3.h); flatter or inverted tets, and
  // any whose iteration does not converge, are left to the caller.
  double min_det;
};

// Where a pass writes, indexed by tet: energy[e] = V psi(F) always; P (9, column-major) at
// stress + 9e when stress is set; the four corner forces V P Dm^-T (12: corner 0's x, y, z first) at
// force + 12 (e - force_first) when force is set (a buffer for a range of tets starting at force_first).
struct TetPassOutput {
  double* energy;
  double* stress;
  double* force;
  int force_first = 0;
};

// One build of the kernels. The passes take tets [begin, end), all present; of one region for
// Neo-Hookean. Each tet goes through the same lane code whatever its place in the range, so results do
// not depend on how a loop splits it, nor on the build: a lane does the same operations at either width.
struct TetKernels {
  void (*neoHookeanPass)(const NeoHookeanTets& tets, const double* x, int begin, int end, const TetPassOutput& out);
  // The same for tets of strain-polynomial regions, but for the tets without a polar rotation (see
  // StrainPolynomialTets), whose indices it writes to `unrotated` (room for end - begin) and whose
  // count it returns: their outputs are written but meaningless, and the caller computes them again.
  int (*strainPolynomialPass)(const StrainPolynomialTets& tets, const double* x, int begin, int end, const TetPassOutput& out,
                              int* unrotated);
  // The corner forces of stresses P kept by a pass (stress + 9e) at force + 12 (e - force_first), by the
  // same code as the passes' own force output, so the two give the same bits.
  void (*forcesFromStresses)(const TetGeometry& tets, const double* stress, int begin, int end, double* force, int force_first);
  // The corner forces of one tet e from its P (9, column-major), 12 at force, by the same code.
  void (*forcesFromStress)(const TetGeometry& tets, int e, const double* P, double* force);
  // log of four values (x > 0, or +inf or NaN, which it returns as std::log does); for the tests.
  void (*log4)(const double* x, double* result);
};

namespace tet_avx2 {
extern const TetKernels kernels;  // four tets per step (AVX2 with FMA)
}
namespace tet_avx512 {
extern const TetKernels kernels;  // eight tets per step (AVX-512F with FMA); all null in a build without it
}
// The kernels this process runs: none (nullptr: the general path runs) unless avx2Available(); the
// AVX2 build's, but for the strain-polynomial pass where avx512Available(), which takes the AVX-512
// build's. (The Neo-Hookean pass and the forces from kept stresses measured no faster at eight tets a
// step: their few flops per tet leave the loads and stores of several doubles per tet as the cost.)
const TetKernels* tetKernels();

}  // namespace qnsim
