#pragma once
// Sparse Cholesky behind one small interface: CHOLMOD (SuiteSparse) when the build found it, Eigen's
// SimplicialLDLT otherwise (chosen at configure time; see QNSIM_SPARSE_BACKEND).
#include <memory>

#include "qnsim/types.h"

namespace qnsim {

class SparseCholesky {
 public:
  // `large_fill` asks for a factorization tuned for matrices with much fill (Newton's 3n x 3n Hessian):
  // CHOLMOD then chooses supernodal or simplicial itself; otherwise simplicial LDL^T, the fastest
  // per solve for the n x n matrices of the paper's sizes.
  static std::unique_ptr<SparseCholesky> create(bool large_fill = false);
  static const char* backend();

  virtual ~SparseCholesky() = default;
  // Symbolic analysis of A's pattern (the lower triangle of a symmetric matrix is read).
  virtual void analyze(const SparseMatrix& A) = 0;
  // Numeric factorization with the analysed pattern; throws qnsim::Error if A is not positive definite.
  virtual void factorize(const SparseMatrix& A) = 0;
  // Solves A X = B in place; B is n x k, column-major.
  virtual void solve(Eigen::Ref<MatX> B) = 0;
  // Solves A X = B in place for B n x 3, row-major (the layout of positions): the three coordinate
  // columns of Projective Dynamics' right-hand side share one factor. Allocates nothing after the
  // first call.
  virtual void solveRows(Eigen::Ref<MatX3> B);
  // The strictly lower entries of the simplicial factor L that solveRows streams (-1 when unknown).
  virtual long factorEntries() const { return -1; }

 protected:
  MatX columns_;  // scratch for the default solveRows
};

}  // namespace qnsim
