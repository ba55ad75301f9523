// A frame of a Simulation, and the public functions, which hand everything to Simulation::Impl.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/collision/contacts.h"
#include "core/collision/intersection_check.h"
#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/model/inversion_bound.h"
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

// Collider contacts and self-contacts, refreshed together. Self-collisions can be switched on live, so
// the refresh is there for every scene; without colliders and with them off it does nothing.
ContactRefresh Simulation::Impl::contactRefresh() {
  return [this](VecX& x) {
    bool changed = false;
    // Collider candidates within 1 % of the scene's size: enough to catch a line-search trial that overshoots.
    if (barrier) {
      objective->contacts.clear();
      changed = pushColliders(x);   // colliders that moved on, the body with them: g changed
      changed |= barrier->adapt(x);  // a stiffer barrier: g changed
    } else if (!colliders.empty()) {
      changed = refreshContacts(colliders, x, x_start, contactParams(settings(), 1e-2 * record.bbox_diagonal), *objective);
    }
    if (settings().self_collision.enabled && !barrier) {  // under the barrier, self-contact is part of it
      changed |= self_collision->refresh(x, x_start, selfContactParams(settings()), *objective);
    } else if (!objective->self_contacts.empty()) {
      objective->self_contacts.clear();
      changed = true;
    }
    return changed;
  };
}

// Collision detection under the barrier, and the inversion guard (inversion_bound.h), on every trial.
StepBound Simulation::Impl::stepBound() {
  return [this](const VecX& x, const VecX& d, double max_alpha) {
    double alpha = barrier ? barrier->stepBound(x, d, max_alpha) : max_alpha;
    if (guardsInversion() && alpha > 0) alpha = inversionStepBound(built.model.tets, x, d, alpha);
    return alpha;
  };
}

// Under the barrier, a direction without the parts that move resting vertices into colliders (barrier.h).
DirectionFilter Simulation::Impl::directionFilter() {
  return [this](const VecX& x, const VecX& d, double cut_below, VecX& filtered) {
    return barrier && barrier->filterDirection(x, d, cut_below, filtered);
  };
}

bool Simulation::Impl::guardsInversion() const { return settings().solver.inversion_guard && method->boundsSteps(); }

// The barrier needs a start that touches nothing: x_n (which touched nothing at the frame's end) moved
// towards the initial guess (under self-contact, x_n + h v_n and sliding: slidingStart) while the
// colliders move through the frame, each vertex a collider meets
// riding with it (ContactBarrier::sweptStart), as far as the self-contacts allow and no tet turns flat
// (those couple the vertices, so one step for all: vertices stopped one by one at a static collider
// would otherwise let the ones behind them run through them), with any vertex still within d^/2 of a
// collider then taken out along its normal, and self-contact pairs closer than d^/100 moved apart to
// it (SelfBarrier::separation), as far as collision detection allows. The inversion guard alone likewise moves x_n as far as no
// tet turns flat. Otherwise the solve starts from the guess itself (y in Alg. 1). A method that cannot
// bound its steps by collision detection (VBD, Jacobi, position-based FEM) keeps the penalties: a
// barrier it may step past would promise what it cannot keep. It starts as the barrier does, and
// collision detection cuts every move it makes after (the frame's guard, ContactBarrier::limitMoves).
void Simulation::Impl::prepareStart(VecX& x, bool bounds_steps) {
  barrier.reset();
  guard.reset();
  objective->barrier = nullptr;
  objective->barrier_curvature = nullptr;
  if (settings().contact_model != ContactModel::Barrier) {
    if (!guardsInversion()) return;
    const VecX toward = x - x_start;
    x = x_start + stepBound()(x_start, toward, 1.0) * toward;
    return;
  }
  const bool self = settings().self_collision.enabled;
  ContactBarrier& b = bounds_steps ? barrier.emplace(frameBarrier()) : guard.emplace(frameBarrier());
  b.beginFrame(colliders, self ? self_barrier.get() : nullptr);
  objective->frictions.clear();
  const bool self_friction = self && bounds_steps && settings().contact_friction > 0;
  const VecX reaction = self_friction ? contactReaction() : VecX();  // before the barrier and friction join g
  if (bounds_steps) {
    objective->barrier = [this](const VecX& z, VecX* gradient) { return barrier->energy(z, gradient); };
    objective->barrier_curvature = [this](const VecX& z, std::vector<NormalStiffness>& out) { barrier->normalStiffness(z, out); };
    // kappa as the last frame ended it (IPC keeps kappa from step to step): ten iterations a frame are
    // too few to find again, every frame, the kappa at which the barrier holds a resting body clear.
    b.setStiffness(std::max(b.stiffness(), state.barrier_stiffness));
    const Settings& s = settings();  // friction with the normal forces of the last frame's end, at its kappa
    b.frictionTerms(x_start, b.stiffness(), s.contact_friction, s.contact_slip_speed * s.time_step, s.time_step, objective->frictions);
  }
  if (self) self_barrier->beginFrame(x_start, b.dhat());  // surfaces held apart from x_n
  if (self_friction) addSelfFriction(reaction, b.stiffness());
  // (The guard's riders feel its position-based friction from the start; the barrier has its own.)
  const double friction = bounds_steps ? 0.0 : settings().contact_friction;
  // Under self-contact the start heads for x_n + h v_n rather than y: y's h^2 M^-1 f_ext lets a body
  // resting on another (or on a collider) sag into it, which the contact held up at x_n, and a solve
  // cut short by collision detection then keeps that sag (a slab on the ground was crushed to a tenth
  // of its height under a box sliding on it).
  if (self && settings().solver.initial_guess == InitialGuess::Inertia) x = x_start + settings().time_step * v_dragged;
  VecX toward = b.sweptStart(x_start, x, settings().time_step, friction) - x_start;
  if (self) toward = slidingStart(toward);
  // No pair brought within d^/2 either: a start that leaves surfaces almost touching leaves the solve a
  // steep barrier that the step, which does not see its curvature, can only creep along.
  double alpha = self ? self_barrier->stepBound(x_start, toward, 1.0, 0.5 * b.dhat()) : 1.0;
  if (alpha > 0) alpha = inversionStepBound(built.model.tets, x_start, toward, alpha);
  // Under contact.push a start cut short leaves the colliders where it stopped; the iterations push on.
  if (pushes()) placeColliders(alpha);
  x = x_start + alpha * toward;
  const double swept = (pushes() ? alpha : 1.0) * settings().time_step;  // of the colliders' motion, to where they are
  if (b.feasibleStart(x, x_start, swept) > 0 && self) self_barrier->beginFrame(x, b.dhat());
  if (!self) return;
  const VecX apart = self_barrier->separation(x, b.closeDistance());
  if (apart.isZero()) return;
  alpha = b.stepBound(x, apart, 1.0);
  if (alpha > 0) alpha = inversionStepBound(built.model.tets, x, apart, alpha);
  x += alpha * apart;
  self_barrier->beginFrame(x, b.dhat());
}

// Bodies resting on each other slide from the frame's start: the start's bound stops the whole start
// where a pair would come within d^/2 (or close in by a tenth, if closer), so the start takes out, to
// first order, what brings pairs within d^ closer (SelfBarrier::withoutApproach; a vertex a handle
// holds does not give way), leaving the motion along the surfaces, which the bound lets through.
VecX Simulation::Impl::slidingStart(const VecX& toward) const {
  VecX mobility = built.model.mass.cwiseInverse();
  for (const Attachment& a : built.model.attachments) mobility[a.vertex] = 0.0;
  return self_barrier->withoutApproach(x_start, toward, mobility);
}

// The forces the contacts exerted over the last frame, as its motion shows them: backward Euler's
// balance m (v_n - v_n-1) / h = f_ext + f(x_n) + f_contact read at the frame's end, f(x_n) being this
// frame's forces (g's gradient at x_n without the barrier, the friction and the inertia w M (x - y), over
// c s of integrator.h, which the other integrators put in front of E's gradient).
// Ten iterations leave the barrier's own force at a frame's end far from the contact's (a box resting on
// another 1-3 N where its weight is 39 N), while the momentum the motion took is the contact's whatever
// the solve left: summed over a body it is exact, since the elastic forces sum to zero.
VecX Simulation::Impl::contactReaction() {
  VecX gradient = VecX::Zero(x_start.size());
  objective->evaluate(x_start, &gradient);
  const StepForm form = stepForm(settings().integrator);
  const double h = settings().time_step, w = objective->inertiaWeight(), cs = form.energy_scale * form.argument_scale;
  const VecX& y = objective->inertiaTarget();
  const Vec3 gravity = settings().gravity;
  VecX reaction(x_start.size());
  for (int v = 0; v < x_start.size() / 3; ++v) {
    const double m = built.model.mass[v];
    const Vec3 forces = -(vertex(gradient, v) - w * m * (vertex(x_start, v) - vertex(y, v))) / cs;
    vertex(reaction, v) = m * ((vertex(v_start, v) - vertex(state.v_previous, v)) / h - gravity) - forces;
  }
  return reaction;
}

// Self-contact's friction (contact_friction): IPC's lagged friction, per touching vertex as for the
// colliders (FrictionTerm), its normal the barrier's force at x_n, its normal force that force's
// direction in the contact's reaction (contactReaction), its anchor where it would be carried by the
// surfaces it touches (x_n plus h times their velocity), so that it pulls a vertex along with what it rests on.
void Simulation::Impl::addSelfFriction(const VecX& reaction, double kappa) {
  const Settings& s = settings();
  for (const SelfBarrier::Touch& t : self_barrier->touches(x_start, v_start, kappa)) {
    const Vec3 normal = t.force.normalized();
    const double normal_force = normal.dot(vertex(reaction, t.vertex));
    if (!(normal_force > 0)) continue;
    objective->frictions.push_back({t.vertex, vertex(x_start, t.vertex) + s.time_step * t.other_velocity, normal,
                                    s.contact_friction * normal_force, s.contact_slip_speed * s.time_step});
  }
}

ContactBarrier Simulation::Impl::frameBarrier() const {
  const double mean_mass = built.model.mass.size() > 0 ? built.model.mass.mean() : 1.0;
  return ContactBarrier(settings().contact_dhat * rest_diagonal, mean_mass, settings().time_step, settings().gravity.norm());
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
