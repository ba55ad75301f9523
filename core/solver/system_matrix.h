#pragma once
// A = w M + c L + d L_e (n x n; w = 1/h^2, c = 1 for backward Euler; d L_e bounds the Hessian of
// stiffness-proportional damping, core/sim/damping.h, L_e the elastic part of L): the constant matrix of
// Projective Dynamics and the initial Hessian approximation A0 of our quasi-Newton method. Assembled and
// factored once; applied to the x, y and z columns of an n x 3 right-hand side with the same factor (Sec. 4.1).
#include <memory>

#include "core/model/model.h"
#include "core/solver/linear/sparse_cholesky.h"

namespace qnsim {

class SystemMatrix {
 public:
  SystemMatrix(const Model& model, double inertia_weight, double stiffness_scale = 1.0, double damping_weight = 0.0);
  // Re-assembles and refactors (after a material, time step or attachment change).
  void rebuild(const Model& model, double inertia_weight, double stiffness_scale = 1.0, double damping_weight = 0.0);
  // v := A^-1 v for v = 3n stacked positions.
  void solve(VecX& v);
  const SparseMatrix& matrix() const { return A_; }
  long factorizations() const { return factorizations_; }
  long factorEntries() const { return cholesky_->factorEntries(); }  // of L, see SparseCholesky

 private:
  SparseMatrix A_;
  std::unique_ptr<SparseCholesky> cholesky_;
  long factorizations_ = 0;
};

// A (x) I3: the 3n x 3n form of an n x n matrix acting on each coordinate, in the interleaved layout of
// positions (entry (3i + c, 3j + c) = A(i, j)).
SparseMatrix perCoordinate(const SparseMatrix& A);

}  // namespace qnsim
