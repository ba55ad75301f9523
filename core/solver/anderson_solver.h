#pragma once
// Anderson acceleration of the Projective Dynamics fixed point (Peng, Deng, Zhang and Liu 2018,
// "Anderson Acceleration for Geometry Optimization and Physics Simulation"), a frame method beside
// Algorithm 1. The PD iteration is the map G(x) = x - A^-1 grad g(x) (one local/global step for PD
// energies, Sec. 4); with the residual f(x) = G(x) - x and the last m differences of G and f between
// iterates, the accelerated iterate is
//   x_AA = G(x_k) - sum_j theta_j dG_j,   theta = argmin |f(x_k) - sum_j theta_j df_j|^2.
// Its safeguard: x_AA is accepted only if g(x_AA) <= g(x_k); otherwise the history is dropped and the
// plain step G(x_k) is taken instead, backtracked (Armijo, as Alg. 1) if g rises, which for a material
// other than a PD energy it may. So g never increases from one iterate to the next.
#include <vector>

#include "core/solver/frame_solver.h"
#include "core/solver/system_matrix.h"

namespace qnsim {

class AndersonSolver final : public FrameMethod {
 public:
  AndersonSolver(Objective& objective, SystemMatrix& system, const SolverSettings& settings);
  void setSettings(const SolverSettings& settings) override { settings_ = settings; }
  void setContactRefresh(ContactRefresh refresh) override { refresh_ = std::move(refresh); }
  // Under the barrier an accelerated iterate past the first impact is refused like one that raises g,
  // and the plain step is shortened to the impact before backtracking.
  void setStepBound(StepBound bound) override { bound_ = std::move(bound); }
  bool boundsSteps() const override { return true; }
  void solve(VecX& x, FrameSolveResult& result) override;
  // Accelerated iterates the safeguard refused in the last frame.
  int rejections() const { return rejections_; }

 private:
  void remember(const VecX& G, const VecX& f);
  void accelerate(const VecX& G, const VecX& f, VecX& out) const;
  // The largest share alpha <= 1 of the step from x to `target` that the step bound allows (1 without a
  // bound); kept in result.ccd_step.
  double allowedStep(const VecX& x, const VecX& target, FrameSolveResult& result);
  // Backtracks x + alpha d from alpha = 1 until Armijo holds; returns alpha (0: no decrease) and counts trials.
  double backtrack(const VecX& x, double g, const VecX& gradient, const VecX& d, double alpha, int& trials);

  Objective& objective_;
  SystemMatrix& system_;
  SolverSettings settings_;
  ContactRefresh refresh_;
  StepBound bound_;
  std::vector<VecX> dG_, df_;  // the last m differences, oldest first
  VecX G_last_, f_last_;       // G and f at the previous iterate (empty: none)
  int rejections_ = 0;
  // Scratch: the iterate's gradient, the trial and its gradient, the PD step, a step handed to the bound.
  VecX gradient_, trial_, trial_gradient_, step_, G_, towards_;
  EnergyParts parts_, trial_parts_;
  double trial_g_ = 0;
};

}  // namespace qnsim
