#include "core/solver/system_matrix.h"

#include <algorithm>
#include <vector>

namespace qnsim {

SystemMatrix::SystemMatrix(const Model& model, double inertia_weight, double stiffness_scale, double damping_weight)
    : cholesky_(SparseCholesky::create()) {
  rebuild(model, inertia_weight, stiffness_scale, damping_weight);
}

namespace {

bool samePattern(const SparseMatrix& a, const SparseMatrix& b) {
  return a.rows() == b.rows() && a.nonZeros() == b.nonZeros() &&
         std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr());
}

}  // namespace

void SystemMatrix::rebuild(const Model& model, double inertia_weight, double stiffness_scale, double damping_weight) {
  SparseMatrix A = stiffness_scale * assembleLaplacian(model);
  if (damping_weight > 0) A += damping_weight * assembleElasticLaplacian(model);  // within L's pattern
  A.diagonal() += inertia_weight * model.mass;  // L holds every diagonal entry
  A.makeCompressed();
  const bool same_pattern = samePattern(A, A_);  // removed elements take entries out
  A_ = std::move(A);
  if (!same_pattern) cholesky_->analyze(A_);
  cholesky_->factorize(A_);
  ++factorizations_;
}

void SystemMatrix::solve(VecX& v) { cholesky_->solveRows(asRows(v)); }

SparseMatrix perCoordinate(const SparseMatrix& A) {
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(3 * A.nonZeros());
  for (int j = 0; j < A.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(A, j); it; ++it)
      for (int c = 0; c < 3; ++c) entries.emplace_back(3 * it.row() + c, 3 * it.col() + c, it.value());
  SparseMatrix lifted(3 * A.rows(), 3 * A.cols());
  lifted.setFromTriplets(entries.begin(), entries.end());
  return lifted;
}

}  // namespace qnsim
