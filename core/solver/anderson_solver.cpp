#include "core/solver/anderson_solver.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "core/common/timer.h"
#include "core/solver/frame_trace.h"

namespace qnsim {

AndersonSolver::AndersonSolver(Objective& objective, SystemMatrix& system, const SolverSettings& settings)
    : objective_(objective), system_(system), settings_(settings) {}

void AndersonSolver::remember(const VecX& G, const VecX& f) {
  if (G_last_.size() == G.size()) {
    dG_.push_back(G - G_last_);
    df_.push_back(f - f_last_);
    if (static_cast<int>(dG_.size()) > settings_.anderson_window) dG_.erase(dG_.begin()), df_.erase(df_.begin());
  }
  G_last_ = G;
  f_last_ = f;
}

// theta from the normal equations of the small least-squares problem (m <= 100 unknowns), with a
// relative ridge of 1e-12 that keeps nearly dependent differences from blowing theta up.
void AndersonSolver::accelerate(const VecX& G, const VecX& f, VecX& out) const {
  const int m = static_cast<int>(df_.size());
  Eigen::MatrixXd normal(m, m);
  Eigen::VectorXd rhs(m);
  for (int i = 0; i < m; ++i) {
    rhs[i] = df_[i].dot(f);
    for (int j = 0; j <= i; ++j) normal(i, j) = normal(j, i) = df_[i].dot(df_[j]);
  }
  normal.diagonal().array() += 1e-12 * normal.diagonal().maxCoeff();
  const Eigen::VectorXd theta = normal.ldlt().solve(rhs);
  out = G;
  for (int i = 0; i < m; ++i) out -= theta[i] * dG_[i];
}

double AndersonSolver::allowedStep(const VecX& x, const VecX& target, FrameSolveResult& result) {
  if (!bound_) return 1.0;
  towards_ = target - x;
  const double limit = bound_(x, towards_, 1.0);
  result.ccd_step = std::min(result.ccd_step, limit);
  return limit;
}

double AndersonSolver::backtrack(const VecX& x, double g, const VecX& gradient, const VecX& d, double alpha, int& trials) {
  const double slope = gradient.dot(d);
  while (alpha > 0) {
    trial_ = x + alpha * d;
    trial_g_ = objective_.evaluate(trial_, &trial_gradient_, &trial_parts_);
    ++trials;
    // Armijo with the frame loop's round-off allowance, and never above g (the safeguard's promise).
    if (trial_g_ <= g + settings_.armijo_gamma * alpha * slope + 1e-14 * std::abs(g) && trial_g_ <= g) return alpha;
    if (trials > settings_.max_backtracks) break;
    alpha *= settings_.armijo_beta;
  }
  trial_ = x;  // nothing decreased g: stay
  trial_g_ = objective_.evaluate(trial_, &trial_gradient_, &trial_parts_);
  return 0.0;
}

void AndersonSolver::solve(VecX& x, FrameSolveResult& result) {
  FrameTrace trace(objective_, result);
  rejections_ = 0;
  dG_.clear(), df_.clear(), G_last_.resize(0);
  if (refresh_) refresh_(x);
  double g = objective_.evaluate(x, &gradient_, &parts_);
  trace.evaluated(0, g, gradient_, parts_);
  for (int k = 1; k <= settings_.iterations; ++k) {
    if (refresh_ && refresh_(x)) {  // the contact set changed: compare like with like, start afresh
      g = objective_.evaluate(x, &gradient_, &parts_);
      dG_.clear(), df_.clear(), G_last_.resize(0);
    }
    Timer solve_timer;
    step_ = -gradient_;
    system_.solve(step_);  // f = G(x) - x = -A^-1 grad g
    result.times.linear_solve += solve_timer.ms();
    if (!(gradient_.dot(step_) < 0)) break;  // x is stationary
    G_ = x + step_;
    remember(G_, step_);
    int trials = 0;
    double alpha = 1.0;
    bool accepted = false;
    if (!dG_.empty()) {
      accelerate(G_, step_, trial_);
      if (allowedStep(x, trial_, result) >= 1.0) {
        trial_g_ = objective_.evaluate(trial_, &trial_gradient_, &trial_parts_);
        ++trials;
        accepted = trial_g_ <= g;
      }
      if (!accepted) ++rejections_, dG_.clear(), df_.clear();  // the safeguard: back to the plain step
    }
    if (!accepted) alpha = backtrack(x, g, gradient_, step_, allowedStep(x, G_, result), trials);
    std::swap(x, trial_);
    std::swap(gradient_, trial_gradient_);
    std::swap(parts_, trial_parts_);
    const bool progress = trial_g_ < g;
    g = trial_g_;
    trace.evaluated(k, g, gradient_, parts_, alpha, trials);
    if (!progress || trace.stop(settings_)) break;
  }
}

}  // namespace qnsim
