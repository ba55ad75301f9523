#ifdef QNSIM_HAVE_CHOLMOD
#include <cholmod.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "core/solver/linear/packed_ldlt.h"
#include "core/solver/linear/sparse_cholesky.h"
#include "qnsim/error.h"

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

// The orderings CHOLMOD's analysis tries include METIS's, whose random numbers are process-wide state:
// two analyses at once (a refactorisation of A on its worker thread beside an exact solve, or two
// simulations in one process) found other orderings than either alone, so the factors and every
// result after them differed in the last bits from run to run. One analysis at a time.
std::mutex& analysisMutex() {
  static std::mutex mutex;
  return mutex;
}

class CholmodCholesky final : public SparseCholesky {
 public:
  explicit CholmodCholesky(bool large_fill) {
    cholmod_start(&common_);
    common_.supernodal = large_fill ? CHOLMOD_AUTO : CHOLMOD_SIMPLICIAL;
    // Supernodal only from 300 flops per entry of L (CHOLMOD's default: 40). Its dense blocks go to the
    // BLAS, which on Debian is the reference one unless another is chosen; with it, Newton's Hessian of
    // the spheres (112 flops per entry) factors in 9.8 ms simplicial against 25.4 supernodal, the hippo's
    // (179) in 50 against 94, the twisting bar's (227) in 111 against 162, while the cloth (291), the
    // squirrel head (314) and the bunny (381) take the same time either way or less supernodal.
    common_.supernodal_switch = 300;
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
    {
      std::lock_guard lock(analysisMutex());
      factor_ = cholmod_analyze(&s, &common_);
    }
    if (!factor_) throw error("sparse Cholesky: CHOLMOD analysis failed (status ", common_.status, ")");
  }

  void factorize(const SparseMatrix& A) override {
    cholmod_sparse s = view(A);
    cholmod_factorize(&s, factor_, &common_);
    if (common_.status == CHOLMOD_NOT_POSDEF || common_.status < CHOLMOD_OK)
      throw error("sparse Cholesky: the matrix is not positive definite (CHOLMOD status ", common_.status, ")");
    if (!factor_->is_super && !factor_->is_ll) copyFactor();
  }

  // A simplicial LDL^T factor (always the case for the n x n matrix A) is solved by PackedLdlt: the
  // three columns together, on two threads; cholmod_solve2 reallocates a workspace on every call.
  void solveRows(Eigen::Ref<MatX3> B) override {
    if (factor_->is_super || factor_->is_ll) return SparseCholesky::solveRows(B);
    packed_.solveRows(B);
  }
  long factorEntries() const override { return factor_->is_super || factor_->is_ll ? -1 : packed_.entries(); }

  // CHOLMOD's simplicial LDL^T keeps D(j) first in column j of L and may leave gaps between columns;
  // the solve wants the strictly lower entries packed, and 1/D.
  void copyFactor() {
    const int n = static_cast<int>(factor_->n);
    const int *Lp = static_cast<const int*>(factor_->p), *Li = static_cast<const int*>(factor_->i);
    const int* Lnz = static_cast<const int*>(factor_->nz);
    const double* Lx = static_cast<const double*>(factor_->x);
    std::vector<int> start(n + 1, 0);
    for (int j = 0; j < n; ++j) start[j + 1] = start[j] + Lnz[j] - 1;
    std::vector<int> row(start[n]);
    std::vector<double> value(start[n]), inverse_diagonal(n);
    for (int j = 0; j < n; ++j) {
      inverse_diagonal[j] = 1.0 / Lx[Lp[j]];
      std::copy(Li + Lp[j] + 1, Li + Lp[j] + Lnz[j], row.begin() + start[j]);
      std::copy(Lx + Lp[j] + 1, Lx + Lp[j] + Lnz[j], value.begin() + start[j]);
    }
    std::vector<int> perm(static_cast<const int*>(factor_->Perm), static_cast<const int*>(factor_->Perm) + n);
    packed_.assign(std::move(start), std::move(row), std::move(value), std::move(inverse_diagonal), std::move(perm));
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
  PackedLdlt packed_;
  cholmod_factor* factor_ = nullptr;
  cholmod_dense *x_ = nullptr, *y_ = nullptr, *e_ = nullptr;
};

}  // namespace

std::unique_ptr<SparseCholesky> SparseCholesky::create(bool large_fill) { return std::make_unique<CholmodCholesky>(large_fill); }
const char* SparseCholesky::backend() { return "CHOLMOD"; }

}  // namespace qnsim
#endif
