// contact.push (docs/contact.md): moving colliders that push the body within the solve. Before every
// iteration a collider behind its pose at the frame's end advances along its motion, and the body
// moves with it in the same step: the vertices it would meet ride with it (ContactBarrier::sweep), the
// others follow through A (heldMotion), those the following would drive into a collider slide along it,
// and the step, colliders and body together, goes as far as no tet turns flat and no self-contact pair
// comes within d^/2. Where the body cannot give way the colliders stop short; the next frame's motion
// starts where they stood (SimState::collider_poses).
#include <algorithm>

#include "core/model/inversion_bound.h"
#include "core/sim/simulation_impl.h"
#include "core/solver/held_motion.h"

namespace qnsim {
namespace {

// A push carries the colliders at most this many d^ along their way: the body's motion is A's linear
// response, which holds for small moves (the bunny through the torus: 10 d^ = 5 mm, under a tet).
constexpr double kPushReach = 10;
// Solves with A for the body's response, its tolerance (relative to the largest held move), and the
// passes that add the vertices the response drives into a collider.
constexpr int kPushSolves = 30;
constexpr double kPushTolerance = 1e-3;
constexpr int kPushPasses = 3;
// A push compresses no tet below the smaller of det F = 1/2 and half its det F before it: the push is
// not a step of g, so left to flatten tets as far as the guard allows it did so push after push, and
// the iterations between could not undo it (bunny through the torus, Neo-Hookean).
constexpr double kPushFloor = 0.5;

// The normal of the collider nearest to p.
Vec3 nearestNormal(const std::vector<Collider>& colliders, const Vec3& p) {
  SurfacePoint nearest{INFINITY, p, Vec3::UnitY()};
  for (const Collider& c : colliders) {
    const SurfacePoint s = closestSurfacePoint(c, p);
    if (s.distance < nearest.distance) nearest = s;
  }
  return nearest.normal;
}

}  // namespace

// Under the methods that refresh contacts once an iteration; ADMM refreshes them within its backtracking,
// where a push would move the trial the search is judging.
bool Simulation::Impl::pushes() const {
  return settings().contact_push && settings().contact_model == ContactModel::Barrier && barrier.has_value() &&
         settings().solver.method != SolverMethod::Admm;
}

void Simulation::Impl::carryColliderLag() {
  const double h = settings().time_step;
  if (settings().contact_push && state.collider_poses.size() == colliders.size())
    for (size_t i = 0; i < colliders.size(); ++i) {  // this frame's motion starts where the last one stopped
      Collider& c = colliders[i];
      const ColliderPose& from = state.collider_poses[i];
      c.velocity = (c.position - from.position) / h;
      const Eigen::AngleAxisd turn(c.rotation * from.rotation.transpose());
      c.angular_velocity = turn.angle() / h * turn.axis();
    }
  collider_ends = colliders;
  collider_progress = 1.0;
}

void Simulation::Impl::standColliders() {
  collider_ends = colliders;
  collider_progress = 1.0;
  if (state.collider_poses.size() != colliders.size()) return;
  for (size_t i = 0; i < colliders.size(); ++i) {
    colliders[i].position = state.collider_poses[i].position;
    colliders[i].rotation = state.collider_poses[i].rotation;
  }
}

void Simulation::Impl::placeColliders(double progress) {
  collider_progress = progress;
  for (size_t i = 0; i < colliders.size(); ++i) colliders[i] = posedWithinFrame(collider_ends[i], settings().time_step, progress);
}

// Where the push takes x while the colliders move to `to_poses` over `duration` seconds: the vertices
// they would meet ride with them, held along x, y and z; the body follows (heldMotion); a vertex that
// the following drives into a collider slides along it instead, held along its normal, and the body
// follows again (up to kPushPasses times, each adding the vertices the last one drove in).
VecX Simulation::Impl::pushMotion(const VecX& x, const std::vector<Collider>& to_poses, double duration) {
  const Eigen::Index n = x.size() / 3;
  VecX to = barrier->sweep(to_poses, x, x, duration);
  std::vector<HeldDirection> held;
  std::vector<char> is_held(static_cast<size_t>(n), 0);
  for (Eigen::Index v = 0; v < n; ++v) {
    const Vec3 u = vertex(to, v) - vertex(x, v);
    if (u.isZero()) continue;
    is_held[v] = 1;
    for (int c = 0; c < 3; ++c) held.push_back({static_cast<int>(v), Vec3::Unit(c), u[c]});
  }
  for (int pass = 0; pass < kPushPasses && !held.empty(); ++pass) {
    const VecX target = x + heldMotion(*system, held, n, kPushSolves, kPushTolerance).p;
    to = barrier->sweep(to_poses, x, target, duration);
    const size_t before = held.size();
    for (Eigen::Index v = 0; v < n; ++v) {
      if (is_held[v] || vertex(to, v) == vertex(target, v)) continue;
      const Vec3 normal = nearestNormal(to_poses, vertex(to, v));
      held.push_back({static_cast<int>(v), normal, normal.dot(vertex(to, v) - vertex(x, v))});
      is_held[v] = 1;
    }
    if (held.size() == before) break;
  }
  return to;
}

bool Simulation::Impl::pushColliders(VecX& x) {
  if (!pushes() || collider_progress >= 1.0) return false;
  const double s = collider_progress, h = settings().time_step;
  double way = 0;  // the farthest a collider's surface point moves over the rest of the frame
  for (const Collider& c : collider_ends)
    way = std::max(way, (1.0 - s) * h * (c.velocity.norm() + c.angular_velocity.norm() * boundingRadius(c)));
  const double reach = kPushReach * barrier->dhat();
  const double next = way > reach ? s + (1.0 - s) * reach / way : 1.0;
  std::vector<Collider> to_poses;
  for (const Collider& c : collider_ends) to_poses.push_back(posedWithinFrame(c, h, next));
  const VecX toward = pushMotion(x, to_poses, (next - s) * h) - x;
  double alpha = 1.0;
  if (settings().self_collision.enabled) alpha = self_barrier->stepBound(x, toward, 1.0, 0.5 * barrier->dhat());
  if (alpha > 0) alpha = inversionStepBound(built.model.tets, x, toward, alpha, 0.9, kPushFloor);
  // A vertex sliding along a curved collider may cut inside it between its ends: halve until clear.
  const double before = colliderClearance(x, 0.5 * barrier->dhat());
  for (int tries = 0; alpha > 1e-6 && tries < 10; ++tries, alpha *= 0.5) {
    const VecX moved = x + alpha * toward;
    placeColliders(s + alpha * (next - s));
    if (colliderClearance(moved, 0.5 * barrier->dhat()) >= 0.5 * before) {
      x = moved;
      if (settings().self_collision.enabled) self_barrier->beginFrame(x, barrier->dhat());
      return true;
    }
  }
  placeColliders(s);
  return false;
}

double Simulation::Impl::colliderClearance(const VecX& x, double reach) const {
  double smallest = reach;
  for (const Collider& c : colliders)
    for (Eigen::Index v = 0; v < x.size() / 3; ++v)
      if (mayReach(c, vertex(x, v), reach)) smallest = std::min(smallest, closestSurfacePoint(c, vertex(x, v)).distance);
  return smallest;
}

double Simulation::Impl::colliderLag() const {
  double lag = 0;
  if (state.collider_poses.size() == collider_ends.size())
    for (size_t i = 0; i < collider_ends.size(); ++i)
      lag = std::max(lag, (collider_ends[i].position - state.collider_poses[i].position).norm());
  return lag;
}

}  // namespace qnsim
