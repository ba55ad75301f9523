#pragma once
// The telemetry of a frame method outside Algorithm 1 (vbd, jacobi, anderson, admm): one IterationRecord
// per iterate with g and |grad g|. A method that evaluates g as part of its work records what it
// evaluated (`evaluated`); one that does not has g evaluated for the record (`trace`), which is timed as
// gradient time and left out of the iterate's time_ms, so that time_ms is the method's own work.
#include "core/common/timer.h"
#include "core/objective/objective.h"
#include "qnsim/settings.h"

namespace qnsim {

class FrameTrace {
 public:
  FrameTrace(Objective& objective, FrameSolveResult& result) : objective_(objective), result_(result) {
    result_.times = {};
    result_.ls_trials = 0;
    result_.ccd_step = 1.0;
    result_.iterations.clear();
  }
  // Evaluates g at x for the record, untimed in time_ms.
  void trace(int k, const VecX& x, double alpha = 1.0) {
    Timer timer;
    result_.g = objective_.evaluate(x, &gradient_, &result_.parts);
    const double ms = timer.ms();
    telemetry_ms_ += ms;
    result_.times.gradient += ms;
    push(k, alpha, 0);
  }
  // Records g and its gradient as the method evaluated them (objective parts from that evaluation).
  void evaluated(int k, double g, const VecX& gradient, const EnergyParts& parts, double alpha = 1.0, int trials = 0) {
    result_.g = g;
    result_.parts = parts;
    gradient_ = gradient;
    push(k, alpha, trials);
  }
  const VecX& lastGradient() const { return gradient_; }
  double initialGradientNorm() const { return result_.iterations.front().grad_norm; }
  // Whether |grad g| at the last record is within solver.gradient_tolerance of the first.
  bool converged(double tolerance) const {
    return tolerance > 0 && result_.iterations.back().grad_norm <= tolerance * initialGradientNorm();
  }
  double elapsedMs() const { return clock_.ms() - telemetry_ms_; }
  // Whether the solve ends here: converged, or out of its time (solver.time_limit_ms).
  bool stop(const SolverSettings& s) const { return converged(s.gradient_tolerance) || (s.time_limit_ms > 0 && elapsedMs() >= s.time_limit_ms); }

 private:
  void push(int k, double alpha, int trials) {
    result_.ls_trials += trials;
    result_.iterations.push_back({k, result_.g, gradient_.norm(), alpha, trials, elapsedMs(), false});
  }

  Objective& objective_;
  FrameSolveResult& result_;
  Timer clock_;
  double telemetry_ms_ = 0;
  VecX gradient_;
};

}  // namespace qnsim
