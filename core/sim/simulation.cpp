#include "core/sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/collision/contacts.h"
#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/objective/wind.h"
#include "core/params/parameters.h"
#include "core/sim/damping.h"

namespace qnsim {

Simulation::Simulation(Scene scene) : scene_(std::move(scene)), settings_(scene_.settings) {
  built_ = buildModel(scene_);
  self_collision_ = std::make_unique<SelfCollision>(built_.model);
  objective_ = std::make_unique<Objective>(built_.model);
  system_ = std::make_unique<SystemMatrix>(built_.model, inertiaWeight(), stiffnessScale(), materialDampingWeight(settings_));
  createSolvers();
  reset();
}

Simulation::~Simulation() = default;

// After every change of A (and of the settings it holds, the damping term's weight among them).
void Simulation::createSolvers() {
  objective_->damping.weight = materialDampingWeight(settings_);
  frame_method_ = makeFrameMethod(settings_.solver, *objective_, *system_);
  frame_method_->setContactRefresh(contactRefresh());
  compared_methods_.clear();
  exact_solver_ = std::make_unique<ExactSolver>(*objective_, *system_);
}

// Collider contacts and self-contacts, refreshed together. Self-collisions can be switched on live, so
// the refresh is there for every scene; without colliders and with them off it does nothing.
ContactRefresh Simulation::contactRefresh() {
  return [this](const VecX& x) {
    bool changed = false;
    // Collider candidates within 1 % of the scene's size: enough to catch a line-search trial that overshoots.
    if (!colliders_.empty())
      changed = refreshContacts(colliders_, x, x_start_, contactParams(settings_, 1e-2 * record_.bbox_diagonal), *objective_);
    if (settings_.self_collision.enabled) {
      changed |= self_collision_->refresh(x, x_start_, selfContactParams(settings_), *objective_);
    } else if (!objective_->self_contacts.empty()) {
      objective_->self_contacts.clear();
      changed = true;
    }
    return changed;
  };
}

void Simulation::poseColliders(double t) {
  colliders_.clear();
  for (const Collider& c : scene_.colliders) colliders_.push_back(posedAt(c, t, settings_.time_step));
}

namespace {
// Eq. 12 for every iterate: (g_k - g*) / (g_0 - g*).
void relativeErrors(const std::vector<IterationRecord>& iterations, double g_star, std::vector<double>& out) {
  const double g0 = iterations.front().g;
  out.clear();
  for (const IterationRecord& it : iterations) out.push_back(g0 > g_star ? (it.g - g_star) / (g0 - g_star) : 0.0);
}
}  // namespace

double Simulation::stiffnessScale() const {
  const StepForm form = stepForm(settings_.integrator);
  return form.energy_scale * form.argument_scale * form.argument_scale;
}

void Simulation::reset() {
  if (setRemovedElements(built_.model, {})) topologyChanged();
  torn_ = 0;
  x_ = x_previous_ = built_.initial;
  v_ = v_previous_ = built_.velocity;
  frame_ = 0;
  time_ = 0;
  objective_->contacts.clear();
  objective_->self_contacts.clear();
  objective_->frictions.clear();
  poseColliders(0.0);
  updateHandleTargets(built_.handles, 0.0, built_.model);
  solve_ = {};
  rel_error_.clear();
  record_ = {};
  frame_method_->forgetHistory();
  measure(0.0);
}

void Simulation::setState(const VecX& x, const VecX& v) {
  x_ = x;
  v_ = v;
  frame_method_->forgetHistory();
}

void Simulation::setSettings(const Settings& s) {
  const Effect effect = editEffect(settings_, s);  // each parameter's cost is declared in the registry
  settings_ = s;
  if (effect == Effect::NewSystemMatrix) {
    pending_is_obsolete_ = refactorPending();  // a pending factor would bring back the old h or interval
    pending_is_stale_ = false;                 // the rebuild below has the newest model
    updateStiffness(built_.model, settings_.solver.stiffness_interval);
    system_->rebuild(built_.model, inertiaWeight(), stiffnessScale(), materialDampingWeight(settings_));
  }
  if (effect == Effect::Live)
    frame_method_->setSettings(settings_.solver);
  else
    createSolvers();
}

void Simulation::prepareFrame(double t) {
  updateHandleTargets(built_.handles, t, built_.model);
  poseColliders(t);
  // Backward Euler: y = x_n + h v_n + h^2 M^-1 f_ext (Sec. 3); the others in integrator.h.
  x_start_ = x_;
  v_start_ = v_;
  makeWindTerms(built_.model, x_start_, settings_.wind, settings_.time_step, t, objective_->winds);
  dragVelocities(built_.model, settings_, x_, v_, v_dragged_);
  dragVelocities(built_.model, settings_, x_, v_previous_, v_previous_dragged_);  // at x_n too: the drag stays linear in v
  predict(settings_.integrator, {x_, v_dragged_, x_previous_, v_previous_dragged_}, settings_, prediction_);
  for (int v : detached_) vertex(prediction_.y, v) = vertex(x_, v);
  objective_->setInertia(prediction_.y, inertiaWeight());
  const StepForm form = stepForm(settings_.integrator);
  objective_->setEnergyTransform(form.energy_scale, form.argument_scale, prediction_.offset);
  objective_->damping.anchor = prediction_.anchor;
  if (objective_->damping.weight > 0) objective_->setDampingFrames(x_, v_dragged_, settings_.time_step / form.velocity_scale);
}

// The thread count is the process's (parallel.h): a simulation sets its own when it steps, so that
// one being built on another thread (the sandbox opening a file) does not change it under this one.
void Simulation::step() {
  setThreadCount(settings_.threads);
  adoptRefactor(false);
  Timer timer;
  const double h = settings_.time_step;
  time_ += h;
  ++frame_;
  prepareFrame(time_);
  double reference_ms = 0;  // reported apart: frame_ms is the solver's time alone
  if (reference_enabled_) {
    Timer reference_timer;
    computeReference(prediction_.y);
    reference_ms = reference_timer.ms();
  }
  x_ = prediction_.y;  // x_1 := y (Alg. 1 line 1)
  frame_method_->solve(x_, solve_);
  warning_.clear();
  torn_ = 0;
  if (!x_.allFinite() || !std::isfinite(solve_.g)) {
    rollBack();
  } else {
    updateVelocity(settings_.integrator, {x_start_, v_dragged_, x_previous_, v_previous_dragged_}, settings_, x_, v_);
    for (int v : detached_) vertex(v_, v).setZero();
    x_previous_ = x_start_;
    v_previous_ = v_start_;
    if (reference_enabled_) relativeErrors(solve_.iterations, std::min(rel_error_.front(), solve_.g), rel_error_);
    tear();
  }
  measure(timer.ms() - reference_ms, reference_ms);
  record_.rolled_back = !warning_.empty();
}

// A frame whose solve produced NaN or Inf must not poison the state or end the session: keep the
// last good positions and drop the velocity that carried the motion into the divergence, so the next
// frame does not repeat it. Time, handles and colliders move on as scheduled.
void Simulation::rollBack() {
  warning_ = "frame " + std::to_string(frame_) + ": the solve diverged (non-finite " + (x_.allFinite() ? "energy" : "positions") +
             "); rolled back to the last good positions with zero velocity. If it repeats, try solver.line_search=armijo, "
             "more solver.iterations or a smaller time_step";
  x_ = x_previous_ = x_start_;
  v_.setZero(x_.size());
  v_previous_ = v_;
  rel_error_.clear();
  solve_.g = objective_->evaluate(x_, nullptr, &solve_.parts);
}

// Stores g(x*) in rel_error_[0] until step() turns it into the relative errors.
void Simulation::computeReference(const VecX& y) {
  contactRefresh()(y);  // the contact set stays fixed for x*
  VecX x_star = y;
  rel_error_.assign(1, exact_solver_->solve(x_star));
}

std::vector<Simulation::MethodTrace> Simulation::compareNextFrame(const std::vector<SolverSettings>& methods) {
  setThreadCount(settings_.threads);
  adoptRefactor(true);
  prepareFrame(time_ + settings_.time_step);
  computeReference(prediction_.y);
  double g_star = rel_error_.front();
  std::vector<MethodTrace> traces;
  std::vector<std::pair<SolverSettings, std::unique_ptr<FrameMethod>>> used;  // kept for the next call
  for (const SolverSettings& method : methods) {
    MethodTrace trace{method, {}, {}};
    auto kept = std::find_if(compared_methods_.begin(), compared_methods_.end(), [&](const auto& m) { return m.second && m.first == method; });
    if (kept != compared_methods_.end()) {
      used.emplace_back(method, std::move(kept->second));
    } else {
      used.emplace_back(method, makeFrameMethod(method, *objective_, *system_));
      used.back().second->setContactRefresh(contactRefresh());
    }
    FrameMethod* frame_method = used.back().second.get();
    VecX x = prediction_.y;
    frame_method->solve(x, trace.result);
    for (const IterationRecord& it : trace.result.iterations) g_star = std::min(g_star, it.g);
    traces.push_back(std::move(trace));
  }
  compared_methods_ = std::move(used);
  for (MethodTrace& trace : traces) relativeErrors(trace.result.iterations, g_star, trace.rel_error);
  rel_error_.clear();
  updateHandleTargets(built_.handles, time_, built_.model);
  poseColliders(time_);
  return traces;
}

void Simulation::measure(double frame_ms, double reference_ms) {
  const Model& model = built_.model;
  FrameRecord& r = record_;
  r.frame = frame_;
  r.time = time_;
  r.iterations = solve_.iterations.empty() ? 0 : solve_.iterations.back().iteration;  // pbd without a trace records 0 and the last
  r.ls_trials = solve_.ls_trials;
  r.frame_ms = frame_ms;
  r.reference_ms = reference_ms;
  r.g = solve_.g;
  r.elastic_energy = solve_.parts.elastic;
  if (settings_.integrator != IntegratorKind::BackwardEuler) {  // g holds c E(s x + o); report E(x) itself
    const StepForm form = stepForm(settings_.integrator);
    EnergyParts parts;
    objective_->setEnergyTransform(1.0, 1.0, prediction_.offset);
    objective_->evaluate(x_, nullptr, &parts);
    objective_->setEnergyTransform(form.energy_scale, form.argument_scale, prediction_.offset);
    r.elastic_energy = parts.elastic;
  }
  r.times = solve_.times;
  r.kinetic_energy = 0;
  r.com.setZero();
  for (int v = 0; v < model.vertexCount(); ++v) {
    r.kinetic_energy += 0.5 * model.mass[v] * vertex(v_, v).squaredNorm();
    r.com += model.mass[v] * vertex(x_, v);
  }
  r.com /= model.mass.sum();
  const auto rows = asRows(x_);
  r.bbox_diagonal = (rows.colwise().maxCoeff() - rows.colwise().minCoeff()).norm();
  r.min_det_f = std::numeric_limits<double>::infinity();
  r.inverted = 0;
  for (int e = 0; e < model.tets.size(); ++e) {
    if (model.tets.removed[e]) continue;
    const double J = model.tets.deformedEdges(x_, e).determinant() * model.tets.rest_inverse[e].determinant();
    r.min_det_f = std::min(r.min_det_f, J);
    r.inverted += J <= 0;
  }
  if (std::isinf(r.min_det_f)) r.min_det_f = 1;  // no tets (or all removed)
  r.active_contacts = 0;  // the terms that push (candidates above the surface do not)
  for (const ContactTerm& c : objective_->contacts) r.active_contacts += c.gap(x_) < 0;
  r.max_penetration = measureContacts(colliders_, x_).max_penetration;
  const SelfContactStats self = measureSelfContacts(objective_->self_contacts, x_);
  r.self_contacts = self.pushing;
  r.max_self_penetration = self.max_penetration;
  r.factorizations = retired_factorizations_ + system_->factorizations() + frame_method_->factorizations();
  r.torn = torn_;
  r.removed = removedCount(model);
}

}  // namespace qnsim
