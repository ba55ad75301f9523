#pragma once
// The Chebyshev semi-iterative direction (paper Alg. 3, after Wang 2015): the Projective Dynamics
// direction q = -A^-1 grad g(x_k), then, after the first S iterations, over-relaxed against the previous
// iterate: d = omega_{k+1} (x_k + q - x_{k-1}) + x_{k-1} - x_k, with
//   omega = 1 for k < S,  2 / (2 - rho^2) at k = S,  4 / (4 - rho^2 omega_k) after,
// rho the spectral radius of the PD iteration. For k < S the direction is exactly PD's (claim C16).
// The frame loop's line search and descent check stay around it: a poorly estimated rho can give an
// ascent direction, which falls back to -grad g there.
#include "core/objective/objective.h"
#include "core/solver/direction.h"
#include "core/solver/system_matrix.h"

namespace qnsim {

class ChebyshevSolver final : public DirectionSolver {
 public:
  // rho = 0: estimated from a training run of plain PD on the first frame solved (estimateSpectralRadius).
  ChebyshevSolver(Objective& objective, SystemMatrix& system, int delay, double rho);
  void reset() override;
  void prepare(const VecX& x) override;
  void direction(const VecX& x, const VecX& gradient, VecX& d, PhaseTimes& times) override;
  double rho() const { return rho_; }
  // An estimated rho (not a given one) is carried from frame to frame.
  void saveHistory(SimState& state) const override { state.spectral_radius = estimated_ ? rho_ : 0.0; }
  void loadHistory(const SimState& state) override {
    if (estimated_) rho_ = state.spectral_radius;
  }

 private:
  Objective& objective_;
  SystemMatrix& system_;
  int delay_;
  double rho_;
  bool estimated_;  // rho was not given: estimated on the first frame solved
  int k_ = 0;           // iterations of this frame so far
  double omega_ = 1.0;  // omega_k
  VecX previous_;       // x_{k-1}
};

// omega_k of Chebyshev's semi-iterative method (Alg. 3; Wang 2015), k counted from 1: 1 before iteration
// `delay`, 2 / (2 - rho^2) at it, 4 / (4 - rho^2 omega_{k-1}) after. Shared by Alg. 3, vbd and jacobi.
double chebyshevWeight(int k, int delay, double rho, double previous_omega);

// The asymptotic convergence rate of plain PD iterations x := x - A^-1 grad g(x) from x0: the geometric
// mean of |x_{i+1} - x_i| / |x_i - x_{i-1}| over the last half of `iterations` steps, kept in
// [0.05, 0.9999]. This is the paper's "training simulation", run on the frame at hand.
double estimateSpectralRadius(Objective& objective, SystemMatrix& system, const VecX& x0, int iterations = 40);

}  // namespace qnsim
