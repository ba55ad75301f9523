#include "core/solver/linear/sparse_cholesky.h"

namespace qnsim {

void SparseCholesky::solveRows(Eigen::Ref<MatX3> B) {
  columns_ = B;
  solve(columns_);
  B = columns_;
}

}  // namespace qnsim
