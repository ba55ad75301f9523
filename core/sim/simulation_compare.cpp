// Frames solved without advancing: the exact solution x* of the reference (relative errors, Eq. 12)
// and the comparison of methods on the next frame (the sandbox's Compare tab, Python, the experiments).
#include <algorithm>
#include <cmath>

#include "core/common/parallel.h"
#include "core/sim/simulation_impl.h"
#include "qnsim/error.h"

namespace qnsim {

void relativeErrors(const std::vector<IterationRecord>& iterations, double g_star, std::vector<double>& out, double g_0) {
  const double g0 = std::isnan(g_0) ? iterations.front().g : g_0;
  out.clear();
  for (const IterationRecord& it : iterations) out.push_back(g0 > g_star ? (it.g - g_star) / (g0 - g_star) : 0.0);
}

// Stores g(x*) in rel_error[0] until step() turns it into the relative errors.
void Simulation::Impl::computeReference(const VecX& y) {
  contactRefresh()(y);  // the contact set stays fixed for x*
  VecX x_star = y;
  rel_error.assign(1, exact_solver->solve(x_star));
}

std::vector<MethodTrace> Simulation::Impl::compareNextFrame(const std::vector<Method>& methods) {
  std::vector<SolverSettings> solvers;
  try {
    for (const Method& m : methods) checkComparable(m), solvers.push_back(applyMethod(settings(), m).solver);
  } catch (const Error& e) {
    throw error("compare: ", e.what());
  }
  setThreadCount(settings().threads);
  adoptRefactor(true);
  prepareFrame(state.time + settings().time_step);
  computeReference(prediction.y);
  double g_star = rel_error.front();
  std::vector<MethodTrace> traces;
  std::vector<std::pair<SolverSettings, std::unique_ptr<FrameMethod>>> used;  // kept for the next call
  for (size_t m = 0; m < methods.size(); ++m) {
    MethodTrace trace{methods[m].label, solvers[m], {}, {}};
    // A kept method serves again when only live settings differ (an experiment's iteration count).
    const auto sameMethod = [](SolverSettings a, const SolverSettings& b) {
      a.iterations = b.iterations;
      a.gradient_tolerance = b.gradient_tolerance;
      a.time_limit_ms = b.time_limit_ms;
      return a == b;
    };
    auto kept = std::find_if(compared_methods.begin(), compared_methods.end(),
                             [&](const auto& c) { return c.second && sameMethod(c.first, solvers[m]); });
    if (kept != compared_methods.end()) {
      used.emplace_back(solvers[m], std::move(kept->second));
      used.back().second->setSettings(solvers[m]);
    } else {
      used.emplace_back(solvers[m], makeFrameMethod(solvers[m], *objective, *system));
      used.back().second->setContactRefresh(contactRefresh());
    }
    VecX x = startOf(solvers[m]);
    used.back().second->solve(x, trace.result);
    for (const IterationRecord& it : trace.result.iterations) g_star = std::min(g_star, it.g);
    traces.push_back(std::move(trace));
  }
  compared_methods = std::move(used);
  // A method that starts at its own guess is measured from g(y), where the others start.
  double g_y = NAN;
  for (size_t m = 0; m < traces.size() && std::isnan(g_y); ++m)
    if (solvers[m].initial_guess == InitialGuess::Inertia) g_y = traces[m].result.iterations.front().g;
  if (std::isnan(g_y)) {
    contactRefresh()(prediction.y);
    g_y = objective->evaluate(prediction.y, nullptr);
  }
  for (size_t m = 0; m < traces.size(); ++m)
    relativeErrors(traces[m].result.iterations, g_star, traces[m].rel_error, solvers[m].initial_guess == InitialGuess::Inertia ? NAN : g_y);
  rel_error.clear();
  updateHandleTargets(built.handles, state.time, built.model);  // back to the current frame's
  poseColliders(state.time);
  return traces;
}

}  // namespace qnsim
