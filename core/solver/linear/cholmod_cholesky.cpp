#ifdef QNSIM_HAVE_CHOLMOD
#include <cholmod.h>

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
  }

  // A simplicial LDL^T factor (always the case for the n x n matrix A) is solved here directly, the
  // three columns together in one pass over L; cholmod_solve2 reallocates a workspace on every call.
  void solveRows(Eigen::Ref<MatX3> B) override {
    if (factor_->is_super || factor_->is_ll) return SparseCholesky::solveRows(B);
    const int n = static_cast<int>(factor_->n);
    const int *Lp = static_cast<const int*>(factor_->p), *Li = static_cast<const int*>(factor_->i);
    const int *Lnz = static_cast<const int*>(factor_->nz), *perm = static_cast<const int*>(factor_->Perm);
    const double* Lx = static_cast<const double*>(factor_->x);
    permuted_.resize(n, 3);
    double* y = permuted_.data();
    for (int k = 0; k < n; ++k) permuted_.row(k) = B.row(perm[k]);  // y = P b
    for (int j = 0; j < n; ++j) {  // L y = y (unit lower; the diagonal slot holds D)
      const double y0 = y[3 * j], y1 = y[3 * j + 1], y2 = y[3 * j + 2];
      for (int p = Lp[j] + 1; p < Lp[j] + Lnz[j]; ++p) {
        double* yi = y + 3 * Li[p];
        yi[0] -= Lx[p] * y0, yi[1] -= Lx[p] * y1, yi[2] -= Lx[p] * y2;
      }
    }
    for (int j = 0; j < n; ++j) permuted_.row(j) /= Lx[Lp[j]];  // D y = y
    for (int j = n - 1; j >= 0; --j) {  // L^T y = y
      double y0 = y[3 * j], y1 = y[3 * j + 1], y2 = y[3 * j + 2];
      for (int p = Lp[j] + 1; p < Lp[j] + Lnz[j]; ++p) {
        const double* yi = y + 3 * Li[p];
        y0 -= Lx[p] * yi[0], y1 -= Lx[p] * yi[1], y2 -= Lx[p] * yi[2];
      }
      y[3 * j] = y0, y[3 * j + 1] = y1, y[3 * j + 2] = y2;
    }
    for (int k = 0; k < n; ++k) B.row(perm[k]) = permuted_.row(k);  // x = P^T y
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
  MatX3 permuted_;
  cholmod_factor* factor_ = nullptr;
  cholmod_dense *x_ = nullptr, *y_ = nullptr, *e_ = nullptr;
};

}  // namespace

std::unique_ptr<SparseCholesky> SparseCholesky::create(bool large_fill) { return std::make_unique<CholmodCholesky>(large_fill); }
const char* SparseCholesky::backend() { return "CHOLMOD"; }

}  // namespace qnsim
#endif
