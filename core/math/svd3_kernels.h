#pragma once
// The lane kernels of svd3, compiled twice: portably (SSE2 where the compiler targets x86) and for
// AVX2, chosen at run time by the CPU (core/common/simd.h). Both do the same operations in the same
// order, without fused multiply-adds, so their results are the same bit for bit, and a matrix gets
// the same SVD in a batch of any size. Only plain types cross this boundary and svd3_kernels.inc
// includes nothing.
#include "core/common/simd.h"

namespace qnsim {

// Lanes symmetric 3x3 matrices side by side, stored lane-innermost so that every step is the same
// arithmetic on all lanes.
template <int Lanes>
struct SymmetricLanes {
  double d[3][Lanes], o[3][Lanes];  // diagonal and off-diagonal (01, 02, 12) of each S
  double V[3][3][Lanes];            // accumulated rotations
  bool active[Lanes];               // not yet converged; a converged lane is left as it is
};

constexpr int kSvdLanes = 16;  // matrices decomposed side by side by the batched svd3

// The SVD F = U diag(sigma) V^T of Lanes matrices side by side (see svd3.h), entry (row, column) of
// each matrix at [row][column][lane].
template <int Lanes>
struct SvdLanes {
  double F[3][3][Lanes];
  // Where F V is nearly rank-deficient (sigma2 <= 1e-8 sigma1), U and sigma are not usable: the
  // caller takes them from a Givens QR.
  double U[3][3][Lanes], sigma[3][Lanes], V[3][3][Lanes];
};

QNSIM_SIMD_BUILDS(svd_portable, svd_avx2,
    // Cyclic Jacobi sweeps until each lane's off-diagonal sum is at most tolerance[lane] (at most
    // 30): S becomes diagonal and V the rotations that diagonalise it.
    void jacobiSweeps(SymmetricLanes<kSvdLanes>& S, const double* tolerance);
    void jacobiSweeps(SymmetricLanes<1>& S, const double* tolerance);
    // The SVDs of svd.F (see SvdLanes).
    void decompose(SvdLanes<kSvdLanes>& svd);
    void decompose(SvdLanes<1>& svd);)

}  // namespace qnsim
