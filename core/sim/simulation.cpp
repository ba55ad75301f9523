// A frame of a Simulation, and the public functions, which hand everything to Simulation::Impl.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/collision/intersection_check.h"
#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/objective/wind.h"
#include "core/sim/damping.h"
#include "core/sim/simulation_impl.h"

namespace qnsim {

Simulation::Impl::Impl(Scene scene_in, SimulationOptions options_in) : scene(std::move(scene_in)), options(options_in) {
  built = buildModel(scene);
  scene_attachments = built.model.attachments;
  initial.x = initial.x_previous = built.initial;
  initial.v = initial.v_previous = built.velocity;
  initial.removed = initial.matrix_removed = matrix_removed = built.removed;  // a saved cut: A without them
  state = initial;
  if (setRemovedElements(built.model, built.removed)) topologyChanged();
  self_collision = std::make_unique<SelfCollision>(built.model);
  self_barrier = std::make_unique<SelfBarrier>(self_collision->primitives());
  const auto rest = asRows(built.model.rest);
  if (rest.rows() > 0) rest_diagonal = (rest.colwise().maxCoeff() - rest.colwise().minCoeff()).norm();
  objective = std::make_unique<Objective>(built.model);
  system = std::make_unique<SystemMatrix>(built.model, inertiaWeight(), stiffnessScale(), materialDampingWeight(settings()));
  createMethods();
  load(initial);
}

void Simulation::Impl::poseColliders(double t) {
  colliders.clear();
  for (const Collider& c : scene.colliders) colliders.push_back(posedAt(c, t, settings().time_step));
}

double Simulation::Impl::stiffnessScale() const {
  const StepForm form = stepForm(settings().integrator);
  return form.energy_scale * form.argument_scale * form.argument_scale;
}

void Simulation::Impl::prepareFrame(double t) {
  const Settings& s = settings();
  updateHandleTargets(built.handles, t, built.model);
  poseColliders(t);
  carryColliderLag();
  objective->drags = state.drags;
  // Backward Euler: y = x_n + h v_n + h^2 M^-1 f_ext (Sec. 3); the others in integrator.h.
  x_start = state.x;
  v_start = state.v;
  makeWindTerms(built.model, x_start, s.wind, s.time_step, t, objective->winds);
  dragVelocities(built.model, s, state.x, state.v, v_dragged);
  dragVelocities(built.model, s, state.x, state.v_previous, v_previous_dragged);  // at x_n too: the drag stays linear in v
  predict(s.integrator, {state.x, v_dragged, state.x_previous, v_previous_dragged}, s, prediction);
  for (int v : detached) vertex(prediction.y, v) = vertex(prediction.adaptive_guess, v) = vertex(state.x, v);
  objective->setInertia(prediction.y, inertiaWeight());
  const StepForm form = stepForm(s.integrator);
  objective->setEnergyTransform(form.energy_scale, form.argument_scale, prediction.offset);
  objective->damping.anchor = prediction.anchor;
  if (objective->damping.weight > 0) objective->setDampingFrames(state.x, v_dragged, s.time_step / form.velocity_scale);
}

// The thread count is the process's (parallel.h): a simulation sets its own when it steps, so that
// one being built on another thread (the sandbox opening a file) does not change it under this one.
void Simulation::Impl::step() {
  setThreadCount(settings().threads);
  adoptRefactor(options.wait_for_refactor);
  Timer timer;
  state.time += settings().time_step;
  ++state.frame;
  prepareFrame(state.time);
  const VecX& start = startOf(settings().solver);  // x_1 := y (Alg. 1 line 1), VBD's adaptive guess, or x_n itself
  if (&start != &state.x) state.x = start;
  prepareStart(state.x, method->boundsSteps());
  // Only a frame with a guard cuts the method's moves: without one, no copy of x per sweep to compare.
  method->setMoveLimit(guard ? MoveLimit([this](const VecX& from, VecX& to) { return guard->limitMoves(from, to, settings().contact_friction); })
                             : MoveLimit());
  double reference_ms = 0;  // reported apart: frame_ms is the solver's time alone
  if (reference_enabled) {
    Timer reference_timer;
    computeReference(barrier ? state.x : prediction.y);
    reference_ms = reference_timer.ms();
  }
  solve.ccd_step = 1.0;
  method->solve(state.x, solve);
  warning.clear();
  torn = 0;
  if (!state.x.allFinite() || !std::isfinite(solve.g)) {
    rollBack();
  } else {
    updateVelocity(settings().integrator, {x_start, v_dragged, state.x_previous, v_previous_dragged}, settings(), state.x, state.v);
    for (int v : detached) vertex(state.v, v).setZero();
    state.x_previous = x_start;
    state.barrier_stiffness = barrier ? barrier->stiffness() : 0.0;
    state.collider_poses.clear();
    if (pushes() && collider_progress < 1.0)
      for (const Collider& c : colliders) state.collider_poses.push_back({c.position, c.rotation});
    state.v_previous = v_start;
    if (reference_enabled) relativeErrors(solve.iterations, std::min(rel_error.front(), solve.g), rel_error);
    tear();
  }
  measure(timer.ms() - reference_ms, reference_ms);
  record.rolled_back = !warning.empty();
}

// A frame whose solve produced NaN or Inf must not poison the state or end the session: keep the
// last good positions and drop the velocity that carried the motion into the divergence, so the next
// frame does not repeat it. Time, handles and colliders move on as scheduled.
void Simulation::Impl::rollBack() {
  warning = "frame " + std::to_string(state.frame) + ": the solve diverged (non-finite " + (state.x.allFinite() ? "energy" : "positions") +
            "); rolled back to the last good positions with zero velocity. If it repeats, try solver.line_search=armijo, "
            "more solver.iterations or a smaller time_step";
  state.x = state.x_previous = x_start;
  state.v.setZero(state.x.size());
  state.v_previous = state.v;
  rel_error.clear();
  solve.g = objective->evaluate(state.x, nullptr, &solve.parts);
}

void Simulation::Impl::measure(double frame_ms, double reference_ms) {
  const Model& model = built.model;
  const VecX& x = state.x;
  FrameRecord& r = record;
  r.frame = state.frame;
  r.time = state.time;
  r.iterations = solve.iterations.empty() ? 0 : solve.iterations.back().iteration;  // pbd without a trace records 0 and the last
  r.ls_trials = solve.ls_trials;
  r.frame_ms = frame_ms;
  r.reference_ms = reference_ms;
  r.g = solve.g;
  r.elastic_energy = solve.parts.elastic;
  if (settings().integrator != IntegratorKind::BackwardEuler) {  // g holds c E(s x + o); report E(x) itself
    const StepForm form = stepForm(settings().integrator);
    EnergyParts parts;
    objective->setEnergyTransform(1.0, 1.0, prediction.offset);
    objective->evaluate(x, nullptr, &parts);
    objective->setEnergyTransform(form.energy_scale, form.argument_scale, prediction.offset);
    r.elastic_energy = parts.elastic;
  }
  r.times = solve.times;
  r.kinetic_energy = 0;
  r.com.setZero();
  for (int v = 0; v < model.vertexCount(); ++v) {
    r.kinetic_energy += 0.5 * model.mass[v] * vertex(state.v, v).squaredNorm();
    r.com += model.mass[v] * vertex(x, v);
  }
  r.com /= model.mass.sum();
  const auto rows = asRows(x);
  r.bbox_diagonal = (rows.colwise().maxCoeff() - rows.colwise().minCoeff()).norm();
  r.min_det_f = std::numeric_limits<double>::infinity();
  r.inverted = 0;
  for (int e = 0; e < model.tets.size(); ++e) {
    if (model.tets.removed[e]) continue;
    const double J = model.tets.deformedEdges(x, e).determinant() * model.tets.rest_inverse[e].determinant();
    r.min_det_f = std::min(r.min_det_f, J);
    r.inverted += J <= 0;
  }
  if (std::isinf(r.min_det_f)) r.min_det_f = 1;  // no tets (or all removed)
  r.active_contacts = 0;  // the terms that push (candidates above the surface do not)
  for (const ContactTerm& c : objective->contacts) r.active_contacts += c.gap(x) < 0;
  r.max_penetration = measureContacts(colliders, x).max_penetration;
  const SelfContactStats self = measureSelfContacts(objective->self_contacts, x);
  r.self_contacts = self.pushing;
  r.max_self_penetration = self.max_penetration;
  r.factorizations = retired_factorizations + system->factorizations() + method->factorizations();
  r.torn = torn;
  r.removed = removedCount(model);
  if (const ContactBarrier* b = barrier ? &*barrier : guard ? &*guard : nullptr) {
    const BarrierStats stats = b->stats(x);
    r.min_distance = stats.min_distance;
    r.barrier_pairs = stats.pairs;
  } else {
    r.min_distance = 0;
    r.barrier_pairs = 0;
  }
  r.ccd_step = solve.ccd_step;
  r.collider_lag = colliderLag();
  r.intersections = check_intersections ? countIntersections(model, x, colliders).total() : -1;
}

Simulation::Impl& internals(Simulation& simulation) { return *simulation.impl_; }

Simulation::Simulation(Scene scene, SimulationOptions options) : impl_(std::make_unique<Impl>(std::move(scene), options)) {}
Simulation::~Simulation() = default;
void Simulation::step() { impl_->step(); }
EditResult Simulation::apply(const Edit& edit) { return impl_->apply(edit); }
SimState Simulation::state() const { return impl_->currentState(); }
int Simulation::frame() const { return impl_->state.frame; }
double Simulation::time() const { return impl_->state.time; }
const VecX& Simulation::positions() const { return impl_->state.x; }
const VecX& Simulation::velocities() const { return impl_->state.v; }
const Scene& Simulation::scene() const { return impl_->scene; }
const Settings& Simulation::settings() const { return impl_->settings(); }
const Model& Simulation::model() const { return impl_->built.model; }
const std::vector<Collider>& Simulation::colliders() const { return impl_->colliders; }
const FrameRecord& Simulation::lastFrame() const { return impl_->record; }
const FrameSolveResult& Simulation::lastSolve() const { return impl_->solve; }
const std::string& Simulation::lastWarning() const { return impl_->warning; }
bool Simulation::refactorPending() const { return impl_->refactorPending(); }
void Simulation::finishRefactor() { impl_->adoptRefactor(true); }
int Simulation::topologyVersion() const { return impl_->topology_version; }
std::vector<MethodTrace> Simulation::compareNextFrame(const std::vector<Method>& methods) { return impl_->compareNextFrame(methods); }
void Simulation::setReferenceEnabled(bool enabled) { impl_->reference_enabled = enabled; }
void Simulation::setIntersectionCheck(bool enabled) { impl_->check_intersections = enabled; }
bool Simulation::referenceEnabled() const { return impl_->reference_enabled; }
const std::vector<double>& Simulation::lastRelativeErrors() const { return impl_->rel_error; }

}  // namespace qnsim
