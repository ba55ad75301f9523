#include "core/solver/lbfgs.h"

#include <algorithm>

#include "core/common/timer.h"

namespace qnsim {

LbfgsSolver::LbfgsSolver(std::unique_ptr<InitialHessian> initial, int window)
    : initial_(std::move(initial)), window_(window), s_(window), t_(window), rho_(window), zeta_(window) {}

void LbfgsSolver::update(const VecX& s, const VecX& t) {
  if (window_ == 0) return;
  // Keep only pairs with positive curvature <t, s>: g is not convex, and a non-positive pair would
  // make the implicit Hessian approximation indefinite.
  const double rho = t.dot(s);
  if (!(rho > 1e-12 * s.norm() * t.norm())) return;
  s_[head_] = s;
  t_[head_] = t;
  rho_[head_] = rho;
  head_ = (head_ + 1) % window_;
  count_ = std::min(count_ + 1, window_);
}

void LbfgsSolver::direction(const VecX& x, const VecX& gradient, VecX& d, PhaseTimes& times) {
  const auto slot = [this](int age) { return (head_ - 1 - age + 2 * window_) % window_; };  // age 0 = newest
  Timer timer;
  d = -gradient;  // q := -grad g(x_k)
  for (int age = 0; age < count_; ++age) {  // i = k-1 down to k-m
    const int i = slot(age);
    zeta_[i] = s_[i].dot(d) / rho_[i];
    d -= zeta_[i] * t_[i];
  }
  times.lbfgs += timer.ms();
  timer.restart();
  const bool pair = count_ > 0;
  initial_->apply(x, d, pair ? &s_[slot(0)] : nullptr, pair ? &t_[slot(0)] : nullptr);  // r := A0^-1 q  (line 7)
  times.linear_solve += timer.ms();
  timer.restart();
  for (int age = count_ - 1; age >= 0; --age) {  // i = k-m up to k-1
    const int i = slot(age);
    const double eta = t_[i].dot(d) / rho_[i];
    d += (zeta_[i] - eta) * s_[i];
  }
  times.lbfgs += timer.ms();
}

}  // namespace qnsim
