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
// x* of the frame, from `start`: y with the penalties' contact set held fixed; under the barrier the
// start prepareStart made (the barrier is infinite inside a collider), every step bounded by collision
// detection as the methods' are, and kappa that of the frame's start.
void Simulation::Impl::computeReference(const VecX& start) {
  if (!barrier) {  // the penalties' refresh leaves x where it is
    VecX x = start;
    contactRefresh()(x);
  }
  VecX x_star = start;
  rel_error.assign(1, exact_solver->solve(x_star, barrier ? stepBound() : StepBound{}));
}

// The methods of a comparison, kept from the last one when only live settings differ (an experiment's
// iteration count), so that a method's set-up (Newton's symbolic analysis) is not timed every time.
std::vector<std::pair<SolverSettings, std::unique_ptr<FrameMethod>>> Simulation::Impl::comparedMethods(const std::vector<SolverSettings>& solvers) {
  const auto sameMethod = [](SolverSettings a, const SolverSettings& b) {
    a.iterations = b.iterations;
    a.gradient_tolerance = b.gradient_tolerance;
    a.time_limit_ms = b.time_limit_ms;
    return a == b;
  };
  std::vector<std::pair<SolverSettings, std::unique_ptr<FrameMethod>>> used;
  for (const SolverSettings& solver : solvers) {
    auto kept = std::find_if(compared_methods.begin(), compared_methods.end(),
                             [&](const auto& c) { return c.second && sameMethod(c.first, solver); });
    if (kept != compared_methods.end()) {
      used.emplace_back(solver, std::move(kept->second));
      used.back().second->setSettings(solver);
    } else {
      used.emplace_back(solver, makeFrameMethod(solver, *objective, *system));
      connect(*used.back().second);
    }
  }
  return used;
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
  // Made after the frame's objective is set: an initial Hessian (the rest-pose Hessian) reads its inertia weight.
  std::vector<std::pair<SolverSettings, std::unique_ptr<FrameMethod>>> used = comparedMethods(solvers);
  // Under the barrier all share one objective only if all run it.
  const bool barrier_model = settings().contact_model == ContactModel::Barrier;
  for (size_t m = 0; m < methods.size(); ++m)
    if (barrier_model && !used[m].second->boundsSteps()) {
      compared_methods = std::move(used);
      updateHandleTargets(built.handles, state.time, built.model);  // back to the current frame's
      poseColliders(state.time);
      throw error("compare: method '", methods[m].label,
                  "' cannot bound its steps by collision detection, so it keeps the penalties under contact.model=barrier; compare it "
                  "under contact.model=penalty");
    }
  VecX reference_start = prediction.y;
  prepareStart(reference_start, barrier_model);  // under the barrier: y moved out of the colliders' way
  computeReference(reference_start);
  double g_star = rel_error.front();
  std::vector<MethodTrace> traces;
  for (size_t m = 0; m < methods.size(); ++m) {
    MethodTrace trace{methods[m].label, solvers[m], {}, {}};
    VecX x = startOf(solvers[m]);
    prepareStart(x, barrier_model);  // a fresh kappa for each method
    used[m].second->solve(x, trace.result);
    for (const IterationRecord& it : trace.result.iterations) g_star = std::min(g_star, it.g);
    traces.push_back(std::move(trace));
  }
  compared_methods = std::move(used);
  // A method that starts at its own guess is measured from g at y (or y's start under the barrier),
  // where the others start.
  double g_y = NAN;
  for (size_t m = 0; m < traces.size() && std::isnan(g_y); ++m)
    if (solvers[m].initial_guess == InitialGuess::Inertia) g_y = traces[m].result.iterations.front().g;
  if (std::isnan(g_y)) {
    reference_start = prediction.y;
    prepareStart(reference_start, barrier_model);
    if (!barrier) contactRefresh()(reference_start);  // the penalties' refresh leaves x where it is
    g_y = objective->evaluate(reference_start, nullptr);
  }
  for (size_t m = 0; m < traces.size(); ++m)
    relativeErrors(traces[m].result.iterations, g_star, traces[m].rel_error, solvers[m].initial_guess == InitialGuess::Inertia ? NAN : g_y);
  rel_error.clear();
  updateHandleTargets(built.handles, state.time, built.model);  // back to the current frame's
  poseColliders(state.time);
  standColliders();
  return traces;
}

}  // namespace qnsim
