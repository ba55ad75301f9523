#pragma once
// The second derivatives of single elements, shared by the assembled Hessian (hessian.cpp) and the
// per-vertex blocks of vertex_blocks.h. Element blocks are made definite, when asked, through the
// eigensystem of each tet's dP/dF (Teran et al. 2005; Smith et al. 2019): a negative eigenvalue is
// clamped to zero (projected Newton) or replaced by its absolute value (Chen et al. 2024, "Stabler
// Neo-Hookean Simulation: Absolute Eigenvalue Filtering for Projected Newton"); the latter keeps the
// curvature's magnitude, so a compressed element is not left with a flat, over-long step.
#include <array>

#include "core/model/model.h"
#include "qnsim/types.h"

namespace qnsim {

enum class EigenvalueFilter { None, Clamp, Absolute };

inline double filterEigenvalue(double lambda, EigenvalueFilter filter) {
  switch (filter) {
    case EigenvalueFilter::None: return lambda;
    case EigenvalueFilter::Clamp: return lambda > 0 ? lambda : 0.0;
    case EigenvalueFilter::Absolute: return lambda < 0 ? -lambda : lambda;
  }
  return lambda;
}

using Mat12 = Eigen::Matrix<double, 12, 12>;

// The 12 x 12 Hessian of tet e's energy V Psi(F) (fibre included) at positions z, vertices in the
// tet's order, its dP/dF eigenvalues filtered.
Mat12 tetHessian(const Model& model, int e, const VecX& z, EigenvalueFilter filter);

// Tet e's energy V Psi(F) at deformation gradient F, its gradient with respect to the tet's vertex a
// (V P g_a, F = sum_a x_a g_a^T) and the 3 x 3 diagonal block of its Hessian for that vertex, filtered alike.
struct TetVertexTerms {
  double energy;
  Vec3 gradient;
  Mat3 hessian;
};
TetVertexTerms tetVertexTerms(const Model& model, int e, int a, const Mat3& F, EigenvalueFilter filter);
// The same for all four vertices from one SVD and one eigensystem (block Jacobi takes them at one x).
std::array<TetVertexTerms, 4> tetVertexTermsOfAll(const Model& model, int e, const Mat3& F, EigenvalueFilter filter);

// The 3 x 3 block K of a spring k/2 (|d| - l0)^2 with d = x_i - x_j (its Hessian is [K -K; -K K]); the
// across-axis eigenvalue k (1 - l0/|d|) is negative in compression and filtered.
Mat3 springBlock(const Vec3& d, double rest_length, double k, EigenvalueFilter filter);

}  // namespace qnsim
