#include "core/solver/lbfgs.h"

#include <algorithm>
#include <cmath>

#include "core/common/timer.h"
#include "core/common/vector_blocks.h"

namespace qnsim {
namespace {

// out[k] = the sum over blocks of what sums(begin, length, partial) adds to partial[k], k < terms.
template <class Sums>
void blockedSums(Eigen::Index n, int terms, std::vector<double>& partial, double* out, const Sums& sums) {
  if (terms == 0) return;
  const int blocks = vectorBlockCount(n);
  partial.assign(static_cast<std::size_t>(blocks) * terms, 0.0);
  forVectorBlocks(n, [&](Eigen::Index begin, Eigen::Index length) { sums(begin, length, partial.data() + (begin / kVectorBlock) * terms); });
  for (int k = 0; k < terms; ++k) {
    double sum = 0.0;
    for (int b = 0; b < blocks; ++b) sum += partial[static_cast<std::size_t>(b) * terms + k];
    out[k] = sum;
  }
}

}  // namespace

LbfgsSolver::LbfgsSolver(std::unique_ptr<InitialHessian> initial, int window, bool follows_settings)
    : initial_(std::move(initial)), follows_settings_(follows_settings) {
  resize(window);
}

void LbfgsSolver::resize(int window) {
  window_ = window;
  s_.assign(window, VecX());
  t_.assign(window, VecX());
  st_.assign(static_cast<std::size_t>(window) * window, 0.0);
  zeta_.assign(window, 0.0);
  c_.assign(window, 0.0);
  dots_.assign(window + 3, 0.0);
  head_ = count_ = 0;
}

// The inner products of the new pair with itself and <s_j, t> with every pair j it does not replace,
// in one pass: the two loops then need only <s_i, q> and <t_i, r> per iteration. They read <s_i, t_j>
// only for pairs i older than j, so <s, t_j> is never formed.
void LbfgsSolver::update(const VecX& x, const VecX& x_next, const VecX& gradient, const VecX& gradient_next) {
  if (window_ == 0) return;
  const int head = head_, kept = std::min(count_, window_ - 1);  // the oldest pair is replaced when full
  s_new_.resize(x.size());
  t_new_.resize(x.size());
  // dots_: <t, s>, |s|^2, |t|^2, then per kept pair j: <s_j, t>.
  blockedSums(x.size(), 3 + kept, partial_, dots_.data(), [&](Eigen::Index b, Eigen::Index n, double* sum) {
    auto sb = s_new_.segment(b, n), tb = t_new_.segment(b, n);
    sb = x_next.segment(b, n) - x.segment(b, n);
    tb = gradient_next.segment(b, n) - gradient.segment(b, n);
    sum[0] += tb.dot(sb), sum[1] += sb.squaredNorm(), sum[2] += tb.squaredNorm();
    for (int age = 0; age < kept; ++age) sum[3 + age] += s_[slot(age)].segment(b, n).dot(tb);
  });
  // Keep only pairs with positive curvature <t, s>: g is not convex, and a non-positive pair would
  // make the implicit Hessian approximation indefinite.
  const double rho = dots_[0];
  if (!(rho > 1e-12 * std::sqrt(dots_[1] * dots_[2]))) return;
  s_[head].swap(s_new_);
  t_[head].swap(t_new_);
  st(head, head) = rho;
  for (int age = 0; age < kept; ++age) st(slot(age), head) = dots_[3 + age];
  head_ = (head + 1) % window_;
  count_ = std::min(count_ + 1, window_);
}

// Alg. 2's two loops with the inner products of the pairs kept (st_): in the first,
// <s_i, q - sum_j zeta_j t_j> = <s_i, q> - sum_j zeta_j <s_i, t_j> over the newer pairs j; in the
// second, <t_i, r + sum_j c_j s_j> = <t_i, r> + sum_j c_j <s_j, t_i> over the older ones. Each loop is
// one pass for its inner products and one for its update of d, instead of two passes per pair.
void LbfgsSolver::direction(const VecX& x, const VecX& gradient, VecX& d, PhaseTimes& times) {
  const int m = count_;
  Timer timer;
  // q = -grad g(x_k); zeta_i = <s_i, q_i> / rho_i from the newest pair to the oldest.
  blockedSums(gradient.size(), m, partial_, dots_.data(), [&](Eigen::Index b, Eigen::Index n, double* sum) {
    for (int age = 0; age < m; ++age) sum[age] -= s_[slot(age)].segment(b, n).dot(gradient.segment(b, n));
  });
  for (int age = 0; age < m; ++age) {
    const int i = slot(age);
    double sq = dots_[age];
    for (int newer = 0; newer < age; ++newer) sq -= zeta_[newer] * st(i, slot(newer));
    zeta_[age] = sq / st(i, i);
  }
  d.resize(gradient.size());
  forVectorBlocks(gradient.size(), [&](Eigen::Index b, Eigen::Index n) {
    auto db = d.segment(b, n);
    db = -gradient.segment(b, n);
    for (int age = 0; age < m; ++age) db -= zeta_[age] * t_[slot(age)].segment(b, n);
  });
  times.lbfgs += timer.ms();
  timer.restart();
  const bool pair = m > 0;
  initial_->apply(x, d, pair ? &s_[slot(0)] : nullptr, pair ? &t_[slot(0)] : nullptr);  // r := A0^-1 q  (line 7)
  times.linear_solve += timer.ms();
  timer.restart();
  if (m == 0) return;
  // eta_i = <t_i, r_i> / rho_i and c_i = zeta_i - eta_i from the oldest pair to the newest.
  blockedSums(d.size(), m, partial_, dots_.data(), [&](Eigen::Index b, Eigen::Index n, double* sum) {
    for (int age = 0; age < m; ++age) sum[age] += t_[slot(age)].segment(b, n).dot(d.segment(b, n));
  });
  for (int age = m - 1; age >= 0; --age) {
    const int i = slot(age);
    double tr = dots_[age];
    for (int older = m - 1; older > age; --older) tr += c_[older] * st(slot(older), i);
    c_[age] = zeta_[age] - tr / st(i, i);
  }
  forVectorBlocks(d.size(), [&](Eigen::Index b, Eigen::Index n) {
    auto db = d.segment(b, n);
    for (int age = 0; age < m; ++age) db += c_[age] * s_[slot(age)].segment(b, n);
  });
  times.lbfgs += timer.ms();
}

}  // namespace qnsim
