// The contacts of a frame: their refresh between iterations, collision detection's bound on every
// trial and the barrier's direction filter, the frame's start that touches nothing, and self-contact's
// friction (docs/contact.md).
#include <algorithm>

#include "core/collision/contacts.h"
#include "core/model/inversion_bound.h"
#include "core/sim/simulation_impl.h"

namespace qnsim {
namespace {
constexpr int kStartHalvings = 10;  // of a start under contact.push that leaves a vertex inside a collider, before none
}  // namespace

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
  x = clearStart(b, toward, alpha);
  if (!self) return;
  const VecX apart = self_barrier->separation(x, b.closeDistance());
  if (apart.isZero()) return;
  alpha = b.stepBound(x, apart, 1.0);
  if (alpha > 0) alpha = inversionStepBound(built.model.tets, x, apart, alpha);
  x += alpha * apart;
  self_barrier->beginFrame(x, b.dhat());
}

// x_n + alpha toward with any vertex within d^/2 of a collider taken out along its normal. Under
// contact.push the colliders stand at alpha of their way (a start cut short leaves them where it
// stopped; the iterations push on). The start is halved, down to x_n, while a vertex is left inside a
// collider: a vertex sliding along a curved collider can cut inside it between the start's ends, and
// its way out along the normal can be cut short where it would cross the body's own surface (the bunny
// squeezed in the torus under the push; a bristle of the brush left inside its static block). It is
// halved too while a way out turns a tet over, which the bound on the start does not see (a tet squeezed
// flat against the torus: its vertices taken out to d^/100 turned it, even from x_n itself, which is then
// the start where it touches nothing; a collider that moved into x_n without the push leaves no such start).
VecX Simulation::Impl::clearStart(ContactBarrier& b, const VecX& toward, double alpha) {
  const bool self = settings().self_collision.enabled;
  for (int halvings = 0;; ++halvings) {
    if (pushes()) placeColliders(alpha);
    VecX x = x_start + alpha * toward;
    const double swept = (pushes() ? alpha : 1.0) * settings().time_step;  // of the colliders' motion, to where they are
    const int moved = b.feasibleStart(x, x_start, swept);
    if (moved > 0 && self) self_barrier->beginFrame(x, b.dhat());
    const bool turned = moved > 0 && turnsTetOver(built.model.tets, x_start, x);
    if (moved == 0 || (!turned && colliderClearance(x, b.dhat()) > 0)) return x;
    if (alpha == 0) {  // x_n itself, if that touches nothing where the colliders stand (under the push, it does)
      if (!turned || !(colliderClearance(x_start, b.dhat()) > 0)) return x;
      if (self) self_barrier->beginFrame(x_start, b.dhat());
      return x_start;
    }
    alpha = halvings < kStartHalvings ? 0.5 * alpha : 0.0;
  }
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

}  // namespace qnsim
