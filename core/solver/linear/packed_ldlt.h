#pragma once
// The solves of a simplicial factorisation P A P^T = L D L^T, held packed (the strictly lower L by
// columns, 1/D, P), for the three coordinate columns of positions at once: the n x n matrix A of the
// paper is solved once per quasi-Newton iteration, so this is the linear solve of every frame.
//
// The columns are split along the elimination tree into independent subtrees ("parts") and the
// separators above them ("top"). Forward substitution runs the parts in parallel, each collecting
// its updates of top rows in a buffer of its own, adds the buffers in a fixed order and finishes the
// top; back substitution finishes the top first, then runs the parts in parallel. The split depends
// only on the factor, never on the thread count, so the results do not either.
// The substitutions themselves are ldlt_kernels.h's, portable or AVX2/FMA as the CPU allows.
#include <Eigen/SparseCholesky>
#include <vector>

#include "core/common/simd.h"
#include "core/solver/linear/ldlt_kernels.h"
#include "qnsim/types.h"

namespace qnsim {

class PackedLdlt {
 public:
  // L's strictly lower entries of column j are row[start[j]..start[j+1]) (ascending) and
  // value[...]; inverse_diagonal[j] = 1 / D(j); row k of P b is row perm[k] of b.
  void assign(std::vector<int> start, std::vector<int> row, std::vector<double> value, std::vector<double> inverse_diagonal,
              std::vector<int> perm);
  // The factor of Eigen's SimplicialLDLT (the backend without CHOLMOD).
  void assign(const Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower>& ldlt);
  // Solves A X = B in place for B n x 3, row-major. Allocates nothing.
  void solveRows(Eigen::Ref<MatX3> B);

  int size() const { return static_cast<int>(perm_.size()); }
  long entries() const { return entries_; }  // L's strictly lower entries
  // What the solves stream: L's entries and the relaxed supernodes' explicit zeros.
  long storedEntries() const { return static_cast<long>(value_.size()); }
  int parts() const { return static_cast<int>(part_columns_.size()); }
  // Whether the solve uses the AVX2/FMA kernels (on by default where the CPU has them; off gives the
  // portable ones, whose round-off differs).
  void setSimd(bool enabled);
  bool simd() const { return simd_; }
  // Entries of L in the top columns, which are solved on one thread (the rest is split evenly).
  double topShare() const;

 private:
  // Runs of consecutive columns, each the parent of the one before, form supernodes (LdltColumn), some
  // of their entries explicit zeros (shareRowPatterns): storing a pattern once cuts the bytes a solve
  // streams, and a supernode's columns update each shared row together.
  using Column = LdltColumn;

  void partition(const std::vector<int>& start, const std::vector<int>& row, std::vector<char>& is_top, std::vector<int>& part_of);
  void shareRowPatterns(const std::vector<int>& start, const std::vector<int>& row, const std::vector<double>& value,
                        const std::vector<char>& is_top, const std::vector<int>& part_of);
  void forward(int part);
  void backward(int part);
  LdltView view() { return {column_.data(), pattern_.data(), value_.data(), inverse_diagonal_.data(), rows(y_)}; }
  // The rows of `storage` (possibly empty: no element is touched).
  static LdltRow* rows(std::vector<LdltRowStorage>& storage) { return reinterpret_cast<LdltRow*>(storage.data()); }

  std::vector<Column> column_;
  std::vector<int> pattern_, perm_;
  std::vector<double> value_, inverse_diagonal_;
  long entries_ = 0;
  // The parts' columns and the top columns, each ascending; top_slot_[i] is row i's index among the
  // top rows (or -1).
  std::vector<std::vector<int>> part_columns_;
  std::vector<int> top_columns_, top_slot_;
  std::vector<LdltRowStorage> y_;                     // the permuted right-hand side
  std::vector<std::vector<LdltRowStorage>> top_update_;  // per part: what it subtracts from the top rows
  bool simd_ = avx2Available();
};

}  // namespace qnsim
