#include "core/solver/system_matrix.h"

namespace qnsim {

SystemMatrix::SystemMatrix(const Model& model, double inertia_weight) : cholesky_(SparseCholesky::create()) {
  rebuild(model, inertia_weight);
}

void SystemMatrix::rebuild(const Model& model, double inertia_weight) {
  const bool same_pattern = A_.rows() == model.vertexCount();
  A_ = assembleLaplacian(model);
  A_.diagonal() += inertia_weight * model.mass;
  A_.makeCompressed();
  if (!same_pattern) cholesky_->analyze(A_);
  cholesky_->factorize(A_);
  ++factorizations_;
}

void SystemMatrix::solve(VecX& v) { cholesky_->solveRows(asRows(v)); }

}  // namespace qnsim
