// A = M/h^2 + c s^2 L + d L_e and the methods built on it. Every edit that changes A refactors it on a
// worker thread from a private copy of the model, so the frame loop never factors; the new A and the
// methods built on it are swapped in at the start of a frame (SimulationOptions::wait_for_refactor).
#include "core/sim/damping.h"
#include "core/sim/simulation_impl.h"

namespace qnsim {
namespace {

// What assembleLaplacian reads, copied so that the worker shares nothing mutable with the frame loop
// (materials are immutable and shared), with `removed` as its removed elements.
Model copyForAssembly(const Model& m, const ElementSet& removed) {
  Model copy;
  copy.rest = m.rest;
  copy.mass = m.mass;
  copy.tets = m.tets;
  copy.springs = m.springs;
  copy.attachments = m.attachments;
  copy.regions = m.regions;
  std::fill(copy.tets.removed.begin(), copy.tets.removed.end(), 0);
  std::fill(copy.springs.removed.begin(), copy.springs.removed.end(), 0);
  for (int e : removed.tets) copy.tets.removed[e] = 1;
  for (int s : removed.springs) copy.springs.removed[s] = 1;
  return copy;
}

}  // namespace

// After every change of A (and of the settings it holds, the damping term's weight among them).
void Simulation::Impl::createMethods() {
  objective->damping.weight = materialDampingWeight(settings());
  method = makeFrameMethod(settings().solver, *objective, *system);
  connect(*method);
  compared_methods.clear();
  exact_solver = std::make_unique<ExactSolver>(*objective, *system);
}

// A method's hooks into the frame's contacts and its guard.
void Simulation::Impl::connect(FrameMethod& m) {
  m.setContactRefresh(contactRefresh());
  m.setStepBound(stepBound());
  m.setDirectionFilter(directionFilter());
  m.setStepRescue(stepRescue());
}

// A of the model as it is now, but without `removed` (tearing.matrix=keep lets A lag the removals).
void Simulation::Impl::requestRefactor(const ElementSet& removed) {
  matrix_removed = removed;
  if (refactorPending()) {
    pending_is_stale = true;  // relaunched with the newest model when this one finishes
    return;
  }
  pending_is_stale = false;
  auto model = std::make_shared<Model>(copyForAssembly(built.model, removed));
  const double weight = inertiaWeight(), scale = stiffnessScale(), damping = materialDampingWeight(settings());
  pending = std::async(std::launch::async, [model, weight, scale, damping] { return std::make_unique<SystemMatrix>(*model, weight, scale, damping); });
}

void Simulation::Impl::adoptRefactor(bool wait) {
  while (refactorPending()) {
    if (!wait && pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    // A stale factor is still newer than A: swapping it in keeps a stream of edits (a tear every frame)
    // from holding the old A forever. The factorisation count stays monotonic (telemetry reports it).
    retired_factorizations += system->factorizations();
    system = pending.get();
    createMethods();
    if (history_for_new_method) method->loadHistory(*history_for_new_method);
    if (pending_is_stale) requestRefactor(matrix_removed);
  }
  history_for_new_method.reset();
}

}  // namespace qnsim
