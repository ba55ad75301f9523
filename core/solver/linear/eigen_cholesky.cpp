#ifndef QNSIM_HAVE_CHOLMOD
#include <Eigen/SparseCholesky>

#include "core/common/error.h"
#include "core/solver/linear/sparse_cholesky.h"

namespace qnsim {
namespace {

class EigenCholesky final : public SparseCholesky {
 public:
  void analyze(const SparseMatrix& A) override { ldlt_.analyzePattern(A); }
  void factorize(const SparseMatrix& A) override {
    ldlt_.factorize(A);
    if (ldlt_.info() != Eigen::Success || (ldlt_.vectorD().array() <= 0).any())
      throw error("sparse Cholesky: the matrix is not positive definite");
  }
  void solve(Eigen::Ref<MatX> B) override { B = ldlt_.solve(B); }

 private:
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> ldlt_;
};

}  // namespace

std::unique_ptr<SparseCholesky> SparseCholesky::create(bool) { return std::make_unique<EigenCholesky>(); }
const char* SparseCholesky::backend() { return "Eigen SimplicialLDLT"; }

}  // namespace qnsim
#endif
