#ifdef QNSIM_HAVE_CHOLMOD
#include <cholmod.h>

#include <algorithm>
#include <vector>

#include "core/common/error.h"
#include "core/solver/linear/sparse_cholesky.h"

namespace qnsim {
namespace {

// A non-owning CHOLMOD view of an Eigen matrix: symmetric, lower triangle used (stype = -1).
cholmod_sparse view(const SparseMatrix& A) {
  cholmod_sparse s{};
  s.nrow = s.ncol = static_cast<size_t>(A.rows());
  s.nzmax = static_cast<size_t>(A.nonZeros());
  s.p = const_cast<int*>(A.outerIndexPtr());
  s.i = const_cast<int*>(A.innerIndexPtr());
  s.x = const_cast<double*>(A.valuePtr());
  s.stype = -1;
  s.itype = CHOLMOD_INT;
  s.xtype = CHOLMOD_REAL;
  s.dtype = CHOLMOD_DOUBLE;
  s.sorted = 1;
  s.packed = 1;
  return s;
}

class CholmodCholesky final : public SparseCholesky {
 public:
  explicit CholmodCholesky(bool large_fill) {
    cholmod_start(&common_);
    common_.supernodal = large_fill ? CHOLMOD_AUTO : CHOLMOD_SIMPLICIAL;
    // Keep the ordering with the least fill among AMD and two nested dissections (on tet meshes and
    // cloth, nested dissection saves 10-15 % of L's entries, and so of every solve, over the default AMD).
    common_.nmethods = 3;
    common_.method[0].ordering = CHOLMOD_AMD;
    common_.method[1].ordering = CHOLMOD_METIS;
    common_.method[2].ordering = CHOLMOD_NESDIS;
    common_.final_ll = 0;
    common_.print = 0;
  }
  ~CholmodCholesky() override {
    release();
    cholmod_finish(&common_);
  }
  CholmodCholesky(const CholmodCholesky&) = delete;
  CholmodCholesky& operator=(const CholmodCholesky&) = delete;

  void analyze(const SparseMatrix& A) override {
    release();
    cholmod_sparse s = view(A);
    factor_ = cholmod_analyze(&s, &common_);
    if (!factor_) throw error("sparse Cholesky: CHOLMOD analysis failed (status ", common_.status, ")");
  }

  void factorize(const SparseMatrix& A) override {
    cholmod_sparse s = view(A);
    cholmod_factorize(&s, factor_, &common_);
    if (common_.status == CHOLMOD_NOT_POSDEF || common_.status < CHOLMOD_OK)
      throw error("sparse Cholesky: the matrix is not positive definite (CHOLMOD status ", common_.status, ")");
    if (!factor_->is_super && !factor_->is_ll) copyFactor();
  }

  // A simplicial LDL^T factor (always the case for the n x n matrix A) is solved here directly: the
  // three columns together in one pass over a compact copy of L; cholmod_solve2 reallocates a
  // workspace on every call.
  void solveRows(Eigen::Ref<MatX3> B) override {
    if (factor_->is_super || factor_->is_ll) return SparseCholesky::solveRows(B);
    const int n = static_cast<int>(start_.size()) - 1;
    const int* __restrict start = start_.data();
    const int* __restrict row = row_.data();
    const double* __restrict value = value_.data();
    double* __restrict y = permuted_.data();
    for (int k = 0; k < n; ++k) permuted_.row(k) = B.row(perm_[k]);  // y = P b
    for (int j = 0; j < n; ++j) {  // L y = y (unit lower triangular)
      const double y0 = y[3 * j], y1 = y[3 * j + 1], y2 = y[3 * j + 2];
      for (int p = start[j]; p < start[j + 1]; ++p) {
        double* yi = y + 3 * row[p];
        yi[0] -= value[p] * y0;
        yi[1] -= value[p] * y1;
        yi[2] -= value[p] * y2;
      }
    }
    for (int j = n - 1; j >= 0; --j) {  // D L^T y = y
      double y0 = y[3 * j] * inverse_diagonal_[j], y1 = y[3 * j + 1] * inverse_diagonal_[j], y2 = y[3 * j + 2] * inverse_diagonal_[j];
      for (int p = start[j]; p < start[j + 1]; ++p) {
        const double* yi = y + 3 * row[p];
        y0 -= value[p] * yi[0];
        y1 -= value[p] * yi[1];
        y2 -= value[p] * yi[2];
      }
      y[3 * j] = y0, y[3 * j + 1] = y1, y[3 * j + 2] = y2;
    }
    for (int k = 0; k < n; ++k) B.row(perm_[k]) = permuted_.row(k);  // x = P^T y
  }

  // CHOLMOD's simplicial LDL^T keeps D(j) first in column j of L and may leave gaps between columns;
  // the solve wants the strictly lower entries packed, and 1/D.
  void copyFactor() {
    const int n = static_cast<int>(factor_->n);
    const int *Lp = static_cast<const int*>(factor_->p), *Li = static_cast<const int*>(factor_->i);
    const int* Lnz = static_cast<const int*>(factor_->nz);
    const double* Lx = static_cast<const double*>(factor_->x);
    start_.assign(n + 1, 0);
    for (int j = 0; j < n; ++j) start_[j + 1] = start_[j] + Lnz[j] - 1;
    row_.resize(start_[n]);
    value_.resize(start_[n]);
    inverse_diagonal_.resize(n);
    for (int j = 0; j < n; ++j) {
      inverse_diagonal_[j] = 1.0 / Lx[Lp[j]];
      std::copy(Li + Lp[j] + 1, Li + Lp[j] + Lnz[j], row_.begin() + start_[j]);
      std::copy(Lx + Lp[j] + 1, Lx + Lp[j] + Lnz[j], value_.begin() + start_[j]);
    }
    perm_.assign(static_cast<const int*>(factor_->Perm), static_cast<const int*>(factor_->Perm) + n);
    permuted_.resize(n, 3);
  }

  void solve(Eigen::Ref<MatX> B) override {
    cholmod_dense b{};
    b.nrow = static_cast<size_t>(B.rows());
    b.ncol = static_cast<size_t>(B.cols());
    b.nzmax = b.nrow * b.ncol;
    b.d = static_cast<size_t>(B.outerStride());
    b.x = B.data();
    b.xtype = CHOLMOD_REAL;
    b.dtype = CHOLMOD_DOUBLE;
    // cholmod_solve2 reuses x_, y_ and e_ across calls, so the steady state allocates nothing.
    cholmod_solve2(CHOLMOD_A, factor_, &b, nullptr, &x_, nullptr, &y_, &e_, &common_);
    const double* out = static_cast<const double*>(x_->x);
    for (Eigen::Index c = 0; c < B.cols(); ++c)
      B.col(c) = Eigen::Map<const VecX>(out + c * static_cast<Eigen::Index>(x_->d), B.rows());
  }

 private:
  void release() {
    if (factor_) cholmod_free_factor(&factor_, &common_);
    if (x_) cholmod_free_dense(&x_, &common_);
    if (y_) cholmod_free_dense(&y_, &common_);
    if (e_) cholmod_free_dense(&e_, &common_);
  }
  cholmod_common common_{};
  std::vector<int> start_, row_, perm_;
  std::vector<double> value_, inverse_diagonal_;
  MatX3 permuted_;
  cholmod_factor* factor_ = nullptr;
  cholmod_dense *x_ = nullptr, *y_ = nullptr, *e_ = nullptr;
};

}  // namespace

std::unique_ptr<SparseCholesky> SparseCholesky::create(bool large_fill) { return std::make_unique<CholmodCholesky>(large_fill); }
const char* SparseCholesky::backend() { return "CHOLMOD"; }

}  // namespace qnsim
#endif
