#include "core/solver/system_matrix.h"

namespace qnsim {

SystemMatrix::SystemMatrix(const Model& model, double inertia_weight, double stiffness_scale) : cholesky_(SparseCholesky::create()) {
  rebuild(model, inertia_weight, stiffness_scale);
}

void SystemMatrix::rebuild(const Model& model, double inertia_weight, double stiffness_scale) {
  const bool same_pattern = A_.rows() == model.vertexCount();
  A_ = stiffness_scale * assembleLaplacian(model);
  A_.diagonal() += inertia_weight * model.mass;
  A_.makeCompressed();
  if (!same_pattern) cholesky_->analyze(A_);
  cholesky_->factorize(A_);
  ++factorizations_;
}

void SystemMatrix::solve(VecX& v) { cholesky_->solveRows(asRows(v)); }

}  // namespace qnsim
