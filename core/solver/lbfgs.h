#pragma once
// Quasi-Newton directions with L-BFGS (paper Alg. 2): the two-loop recursion over the last m pairs
// (s_i, t_i) around the solve with the initial Hessian A0 (ours: M/h^2 + L).
#include <memory>
#include <vector>

#include "core/solver/direction.h"
#include "core/solver/initial_hessian.h"

namespace qnsim {

class LbfgsSolver final : public DirectionSolver {
 public:
  // follows_settings: the window is solver.lbfgs_window, edited live (qn); else it stays `window` (PD: 0).
  LbfgsSolver(std::unique_ptr<InitialHessian> initial, int window, bool follows_settings = false);
  void reset() override {
    count_ = 0;
    initial_->reset();
  }
  // A new window m takes effect at once: the history is per frame, so nothing is lost between frames.
  void setSettings(const SolverSettings& settings) override {
    if (follows_settings_ && settings.lbfgs_window != window_) resize(settings.lbfgs_window);
  }
  void prepare(const VecX& x) override { initial_->prepare(x); }
  long factorizations() const override { return initial_->factorizations(); }
  bool seesBarrierCurvature() const override { return initial_->seesBarrierCurvature(); }
  void direction(const VecX& x, const VecX& gradient, VecX& d, PhaseTimes& times) override;
  // Forms the pair s = x_{k+1} - x_k, t = grad g(x_{k+1}) - grad g(x_k) (Alg. 1) and its inner products
  // in one pass.
  void update(const VecX& x, const VecX& x_next, const VecX& gradient, const VecX& gradient_next) override;

 private:
  void resize(int window);
  // The ring slot of the pair `age` iterations old (0 = newest).
  int slot(int age) const { return (head_ - 1 - age + 2 * window_) % window_; }
  // <s_i, t_j> of the pairs in ring slots i and j, set where pair i is as old as j or older (rho_i on
  // the diagonal): the only ones the two loops read.
  double& st(int i, int j) { return st_[static_cast<std::size_t>(i) * window_ + j]; }

  std::unique_ptr<InitialHessian> initial_;
  int window_;
  bool follows_settings_;
  // Ring buffer of the last `window_` pairs; `count_` valid, newest at (head_ - 1) mod window_.
  std::vector<VecX> s_, t_;
  VecX s_new_, t_new_;  // the newest pair, until its curvature admits it to the ring
  std::vector<double> st_;
  std::vector<double> zeta_, c_;       // the two loops' coefficients, per age
  std::vector<double> dots_, partial_;  // scratch of the inner products
  int head_ = 0, count_ = 0;
};

}  // namespace qnsim
