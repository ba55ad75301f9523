#include "core/solver/linear/incomplete_cholesky.h"

#include <Eigen/IterativeLinearSolvers>

#include "qnsim/error.h"

namespace qnsim {

struct IncompleteCholeskyPreconditioner::Factor {
  Eigen::IncompleteCholesky<double, Eigen::Lower, Eigen::AMDOrdering<int>> ichol;
};

IncompleteCholeskyPreconditioner::IncompleteCholeskyPreconditioner(const SparseMatrix& M) : factor_(std::make_unique<Factor>()) {
  factor_->ichol.compute(M);
  if (factor_->ichol.info() != Eigen::Success)
    throw error("incomplete Cholesky of a ", M.rows(), " x ", M.cols(), " matrix broke down even with a diagonal shift");
}

IncompleteCholeskyPreconditioner::~IncompleteCholeskyPreconditioner() = default;

Eigen::Index IncompleteCholeskyPreconditioner::size() const { return factor_->ichol.rows(); }

void IncompleteCholeskyPreconditioner::apply(const VecX& r, VecX& z) const {
  const Eigen::Index m = size();
  if (r.size() == m) {
    z = factor_->ichol.solve(r);
    return;
  }
  if (r.size() != 3 * m) throw error("incomplete Cholesky of size ", m, " cannot precondition a system of size ", r.size());
  z.resize(r.size());
  VecX column;
  for (int c = 0; c < 3; ++c) {
    column = Eigen::Map<const VecX, 0, Eigen::InnerStride<3>>(r.data() + c, m);
    Eigen::Map<VecX, 0, Eigen::InnerStride<3>>(z.data() + c, m) = factor_->ichol.solve(column);
  }
}

}  // namespace qnsim
