#include "core/solver/chebyshev.h"

#include <algorithm>
#include <cmath>

#include "core/common/timer.h"

namespace qnsim {

ChebyshevSolver::ChebyshevSolver(Objective& objective, SystemMatrix& system, int delay, double rho)
    : objective_(objective), system_(system), delay_(delay), rho_(rho), estimated_(rho == 0.0) {}

void ChebyshevSolver::reset() {
  k_ = 0;
  omega_ = 1.0;
}

void ChebyshevSolver::prepare(const VecX& x) {
  if (rho_ == 0.0) rho_ = estimateSpectralRadius(objective_, system_, x);  // the training run, once
}

void ChebyshevSolver::direction(const VecX& x, const VecX& gradient, VecX& d, PhaseTimes& times) {
  if (rho_ == 0.0) prepare(x);  // when the frame loop did not prepare (a solver driven directly)
  Timer timer;
  d = -gradient;
  system_.solve(d);  // q = -A^-1 grad g (the PD direction)
  times.linear_solve += timer.ms();
  ++k_;
  const double omega = chebyshevWeight(k_, delay_, rho_, omega_);
  if (omega != 1.0 && k_ > 1) d = omega * (x + d - previous_) + previous_ - x;  // Alg. 3, last line
  else if (omega != 1.0) d *= omega;  // no x_{k-1} yet (S = 1): take x_{k-1} = x_k
  omega_ = omega;
  previous_ = x;
}

double chebyshevWeight(int k, int delay, double rho, double previous_omega) {
  const double rho2 = rho * rho;
  return k < delay ? 1.0 : k == delay ? 2.0 / (2.0 - rho2) : 4.0 / (4.0 - rho2 * previous_omega);
}

double estimateSpectralRadius(Objective& objective, SystemMatrix& system, const VecX& x0, int iterations) {
  VecX x = x0, gradient, step;
  std::vector<double> lengths;
  for (int i = 0; i < iterations; ++i) {
    objective.evaluate(x, &gradient);
    step = -gradient;
    system.solve(step);
    lengths.push_back(step.norm());
    x += step;
  }
  const int first = iterations / 2, last = iterations - 1;
  if (!(lengths[first] > 0.0) || !(lengths[last] > 0.0) || !x.allFinite()) return 0.9;  // converged or diverged: a safe guess
  const double rate = std::pow(lengths[last] / lengths[first], 1.0 / (last - first));
  return std::clamp(rate, 0.05, 0.9999);
}

}  // namespace qnsim
