#ifndef QNSIM_HAVE_CHOLMOD
#include <Eigen/SparseCholesky>

#include "core/solver/linear/packed_ldlt.h"
#include "core/solver/linear/sparse_cholesky.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {

class EigenCholesky final : public SparseCholesky {
 public:
  void analyze(const SparseMatrix& A) override { ldlt_.analyzePattern(A); }
  void factorize(const SparseMatrix& A) override {
    ldlt_.factorize(A);
    if (ldlt_.info() != Eigen::Success || (ldlt_.vectorD().array() <= 0).any())
      throw error("sparse Cholesky: the matrix is not positive definite");
    inverse_diagonal_ = ldlt_.vectorD().cwiseInverse();  // vectorD() returns a copy: keep one
    packed_.assign(ldlt_);
  }
  void solveRows(Eigen::Ref<MatX3> B) override { packed_.solveRows(B); }
  long factorEntries() const override { return packed_.entries(); }
  // The steps of SimplicialLDLT::solve, written out so that no permutation is applied in place
  // (Eigen allocates a mask for that): P A P^T = L D L^T.
  void solve(Eigen::Ref<MatX> B) override {
    permuted_ = ldlt_.permutationP() * B;
    ldlt_.matrixL().solveInPlace(permuted_);
    permuted_ = inverse_diagonal_.asDiagonal() * permuted_;
    ldlt_.matrixU().solveInPlace(permuted_);
    B = ldlt_.permutationPinv() * permuted_;
  }

 private:
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> ldlt_;
  MatX permuted_;
  VecX inverse_diagonal_;
  PackedLdlt packed_;  // the three coordinate columns at once, on two threads
};

}  // namespace

std::unique_ptr<SparseCholesky> SparseCholesky::create(bool) { return std::make_unique<EigenCholesky>(); }
const char* SparseCholesky::backend() { return "Eigen SimplicialLDLT"; }

}  // namespace qnsim
#endif
