#include "core/solver/linear/packed_ldlt.h"

#include <algorithm>
#include <numeric>
#include <queue>
#include <utility>

#include "core/common/parallel.h"

namespace qnsim {
namespace {

// Parts of a large factor: twice the two cores' threads, so that uneven parts still share out evenly.
// A fixed number: the split, and so the round-off, must not depend on the thread count.
constexpr int kParts = 4;
// Below this many entries of L a solve takes tens of microseconds: one part, no threads.
constexpr long kParallelEntries = 50000;
// Relaxed supernodes (shareRowPatterns): the largest share of explicit zeros, and the most columns.
constexpr double kRelaxedZeros = 0.2;
constexpr long kRelaxedWidth = 32;

}  // namespace

void PackedLdlt::assign(std::vector<int> start, std::vector<int> row, std::vector<double> value, std::vector<double> inverse_diagonal,
                        std::vector<int> perm) {
  inverse_diagonal_ = std::move(inverse_diagonal);
  perm_ = std::move(perm);
  entries_ = static_cast<long>(row.size());
  y_.resize(size());
  column_.resize(size());
  std::vector<char> is_top;
  std::vector<int> part_of;
  partition(start, row, is_top, part_of);
  shareRowPatterns(start, row, value, is_top, part_of);
}

void PackedLdlt::assign(const Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower>& ldlt) {
  const SparseMatrix& L = ldlt.matrixL().nestedExpression();  // strictly lower, rows ascending per column
  const int n = static_cast<int>(L.cols());
  std::vector<int> start(L.outerIndexPtr(), L.outerIndexPtr() + n + 1), row(L.innerIndexPtr(), L.innerIndexPtr() + L.nonZeros());
  std::vector<double> value(L.valuePtr(), L.valuePtr() + L.nonZeros()), inverse_diagonal(n);
  for (int j = 0; j < n; ++j) inverse_diagonal[j] = 1.0 / ldlt.vectorD()[j];
  const auto& inverse = ldlt.permutationPinv().indices();  // (P b)(k) = b(P^-1(k))
  std::vector<int> order(inverse.data(), inverse.data() + n);
  assign(std::move(start), std::move(row), std::move(value), std::move(inverse_diagonal), std::move(order));
}

namespace {

using Subtree = std::pair<long, int>;  // (work, root): the largest first, ties by the lower root
struct Smaller {
  bool operator()(const Subtree& a, const Subtree& b) const { return a.first < b.first || (a.first == b.first && a.second > b.second); }
};
using Subtrees = std::priority_queue<Subtree, std::vector<Subtree>, Smaller>;

// The subtrees dealt to the parts, largest first, each to the part with the least work so far.
struct Dealt {
  std::vector<long> load;                    // per part
  std::vector<std::pair<int, int>> part_of;  // (root, part)
};
Dealt deal(Subtrees subtrees, int parts) {
  Dealt dealt{std::vector<long>(parts, 0), {}};
  for (; !subtrees.empty(); subtrees.pop()) {
    const int lightest = static_cast<int>(std::min_element(dealt.load.begin(), dealt.load.end()) - dealt.load.begin());
    dealt.part_of.push_back({subtrees.top().second, lightest});
    dealt.load[lightest] += subtrees.top().first;
  }
  return dealt;
}

// How long two threads take over the parts in this order, the caller taking them from the front and
// a worker from the back, each the next as it finishes (as parallelFor does).
long twoThreadTime(const std::vector<long>& load, const std::vector<int>& order) {
  long caller = 0, worker = 0;
  for (int front = 0, back = static_cast<int>(order.size()); front < back;) {
    if (caller <= worker) caller += load[order[front++]];
    else worker += load[order[--back]];
  }
  return std::max(caller, worker);
}

// The order of the parts in which two threads finish soonest (the first such in lexicographic order).
std::vector<int> bestOrder(const std::vector<long>& load) {
  std::vector<int> order(load.size()), best;
  std::iota(order.begin(), order.end(), 0);
  long best_time = -1;
  do {
    const long time = twoThreadTime(load, order);
    if (best_time < 0 || time < best_time) best_time = time, best = order;
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

}  // namespace

// The elimination tree: the parent of column j is the first row of L(:, j), and L(:, j)'s rows are
// all ancestors of j. Subtrees are peeled from the top, largest first (its root joins the top), and
// the remaining subtrees are dealt to the parts (deal), in the order two threads finish soonest.
void PackedLdlt::partition(const std::vector<int>& start, const std::vector<int>& row, std::vector<char>& is_top,
                           std::vector<int>& part_of) {
  const int n = size();
  const auto own = [&](int j) { return static_cast<long>(start[j + 1] - start[j] + 1); };  // diagonal included
  std::vector<int> parent(n, -1), first_child(n, -1), next_sibling(n, -1);
  std::vector<long> work(n, 0);  // entries of L in the subtree's columns
  long total = 0;
  for (int j = n - 1; j >= 0; --j)
    if (own(j) > 1) {
      parent[j] = row[start[j]];
      next_sibling[j] = first_child[parent[j]];
      first_child[parent[j]] = j;
    }
  for (int j = 0; j < n; ++j) {  // children come before their parents
    work[j] += own(j);
    if (parent[j] >= 0) work[parent[j]] += work[j];
    else total += work[j];
  }
  const int parts = total > kParallelEntries ? kParts : 1;

  Subtrees subtrees;
  for (int j = 0; j < n; ++j)
    if (parent[j] < 0) subtrees.push({work[j], j});
  // Peel while the largest subtree is more than half a part's share, keeping the number of peels
  // with which two threads would finish soonest (the top, then the parts); then redo those peels.
  Subtrees candidates = subtrees;
  long top = 0, best_cost = total;
  int best_peels = 0;
  for (int peels = 0; parts > 1 && !candidates.empty(); ++peels) {
    const std::vector<long> load = deal(candidates, parts).load;
    const long cost = top + twoThreadTime(load, bestOrder(load));
    if (cost < best_cost) best_cost = cost, best_peels = peels;
    const auto [largest, root] = candidates.top();
    if (largest <= total / (2 * parts)) break;
    candidates.pop();
    top += own(root);
    for (int c = first_child[root]; c >= 0; c = next_sibling[c]) candidates.push({work[c], c});
  }
  is_top.assign(n, 0);
  for (int peels = 0; peels < best_peels; ++peels) {
    const int root = subtrees.top().second;
    subtrees.pop();
    is_top[root] = 1;
    for (int c = first_child[root]; c >= 0; c = next_sibling[c]) subtrees.push({work[c], c});
  }

  const Dealt dealt = deal(subtrees, parts);
  const std::vector<int> order = bestOrder(dealt.load);
  std::vector<int> place(parts);  // a part's index in that order
  for (int i = 0; i < parts; ++i) place[order[i]] = i;
  part_of.assign(n, -1);
  for (const auto& [root, part] : dealt.part_of) part_of[root] = place[part];
  part_columns_.assign(parts, {});
  top_columns_.clear();
  top_slot_.assign(n, -1);
  for (int j = n - 1; j >= 0; --j)  // a subtree's columns take its root's part
    if (!is_top[j] && part_of[j] < 0) part_of[j] = part_of[parent[j]];
  for (int j = 0; j < n; ++j) {
    if (is_top[j]) {
      top_slot_[j] = static_cast<int>(top_columns_.size());
      top_columns_.push_back(j);
    } else {
      part_columns_[part_of[j]].push_back(j);
    }
  }
  top_update_.assign(parts, std::vector<LdltRowStorage>(top_columns_.size()));
}

// Supernodes: runs of columns first..last, each the parent of the one before in the elimination tree,
// so that column j's rows below last lie in column last's (L's rows of a column, less its parent, are
// rows of its parent's). Column j is stored with a dense triangle (rows j+1..last) and column last's
// rows, its missing entries as explicit zeros: a run takes its next column while at most
// kRelaxedZeros of what it stores would be zeros (0: only the exact supernodes) and it is at most
// kRelaxedWidth wide. Wider supernodes update each row with more columns at once (ldlt_kernels.h).
// Supernodes never cross from a part to the top or another part, so that each list of columns is
// solved on its own. Rows ascend: the dense rows come first, then the shared rows, whose own part's
// rows come before the top's (ancestors ascend).
void PackedLdlt::shareRowPatterns(const std::vector<int>& start, const std::vector<int>& row, const std::vector<double>& value,
                                  const std::vector<char>& is_top, const std::vector<int>& part_of) {
  const int n = size();
  const auto count = [&](int j) { return static_cast<long>(start[j + 1] - start[j]); };
  const auto takes = [&](int first, int last, long entries) {  // may first..last grow by last + 1?
    const int next = last + 1;
    if (next >= n || count(last) == 0 || row[start[last]] != next || is_top[next] != is_top[first] || part_of[next] != part_of[first])
      return false;
    const long width = next - first + 1, stored = width * (width - 1) / 2 + width * count(next);
    return width <= kRelaxedWidth && static_cast<double>(stored - entries - count(next)) <= kRelaxedZeros * static_cast<double>(stored);
  };
  pattern_.clear();
  value_.clear();
  for (int first = 0; first < n;) {
    int last = first;
    for (long entries = count(first); takes(first, last, entries); entries += count(last)) ++last;
    const int shared = static_cast<int>(pattern_.size());
    pattern_.insert(pattern_.end(), row.begin() + start[last], row.begin() + start[last + 1]);
    const int shared_end = static_cast<int>(pattern_.size());
    int shared_top = shared;
    while (shared_top < shared_end && !is_top[pattern_[shared_top]]) ++shared_top;
    for (int j = first; j <= last; ++j) {
      const int at = static_cast<int>(value_.size());
      column_[j] = {at, first, last, shared, shared_top, shared_end};
      value_.resize(at + (last - j) + (shared_end - shared), 0.0);
      int p = shared;  // column j's rows below last, in column last's rows (both ascend)
      for (int k = start[j]; k < start[j + 1]; ++k) {
        if (row[k] <= last) {
          value_[at + (row[k] - j - 1)] = value[k];
          continue;
        }
        while (p + 1 < shared_end && pattern_[p] < row[k]) ++p;
        value_[at + (last - j) + (p - shared)] = value[k];
      }
    }
    first = last + 1;
  }
}

double PackedLdlt::topShare() const {
  long top = 0;
  for (int j : top_columns_) top += (column_[j].last - j) + (column_[j].shared_end - column_[j].shared) + 1;
  return entries_ == 0 ? 0.0 : static_cast<double>(top) / static_cast<double>(entries_ + size());
}

void PackedLdlt::setSimd(bool enabled) { simd_ = enabled && avx2Available(); }

// Forward substitution over one part (or the top, part = -1): a part adds its updates of top rows
// to its own buffer; the top first takes the parts' buffers, in part order.
void PackedLdlt::forward(int part) {
  const LdltView L = view();
  const auto run = simd_ ? ldlt_avx2::forward : ldlt_portable::forward;
  if (part >= 0) {
    std::vector<LdltRowStorage>& update = top_update_[part];
    std::fill(update.begin(), update.end(), LdltRowStorage{});
    const std::vector<int>& columns = part_columns_[part];
    return run(L, columns.data(), static_cast<int>(columns.size()), top_slot_.data(), rows(update));
  }
  for (const std::vector<LdltRowStorage>& update : top_update_)
    for (std::size_t t = 0; t < top_columns_.size(); ++t) y_[top_columns_[t]].xyz -= update[t].xyz;
  run(L, top_columns_.data(), static_cast<int>(top_columns_.size()), nullptr, nullptr);
}

// Back substitution over one part (or the top, part = -1).
void PackedLdlt::backward(int part) {
  const std::vector<int>& columns = part < 0 ? top_columns_ : part_columns_[part];
  (simd_ ? ldlt_avx2::backward : ldlt_portable::backward)(view(), columns.data(), static_cast<int>(columns.size()));
}

// Each part gathers its rows of P b before its forward substitution and scatters its rows of x after
// its back substitution, so only the top's rows are permuted on the calling thread: a part's
// substitutions touch only its own rows and the top's.
void PackedLdlt::solveRows(Eigen::Ref<MatX3> B) {
  const auto gather = [&](const std::vector<int>& columns) {  // y = P b
    for (int k : columns) y_[k].xyz = LdltRow{B(perm_[k], 0), B(perm_[k], 1), B(perm_[k], 2), 0.0};
  };
  const auto scatter = [&](const std::vector<int>& columns) {  // x = P^T y
    for (int k : columns) B.row(perm_[k]) << y_[k].xyz[0], y_[k].xyz[1], y_[k].xyz[2];
  };
  parallelFor(parts(), 1, [&](int begin, int end) {
    for (int part = begin; part < end; ++part) gather(part_columns_[part]), forward(part);
  });
  gather(top_columns_);
  forward(-1);
  backward(-1);
  scatter(top_columns_);
  parallelFor(parts(), 1, [&](int begin, int end) {
    for (int part = begin; part < end; ++part) backward(part), scatter(part_columns_[part]);
  });
}

}  // namespace qnsim
