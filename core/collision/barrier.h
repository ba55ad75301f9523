#pragma once
// Barrier contact (contact.model=barrier), after Incremental Potential Contact (Li et al.
// 2020): every vertex closer than d^ to a collider's surface adds kappa b(d) to g, with
//   b(d) = -(d - d^)^2 ln(d / d^)  for 0 < d < d^,  0 beyond,  +infinity at d <= 0,
// d the unsigned distance to the collider's actual surface (closestSurfacePoint), so b is C2 and g
// grows without bound as a vertex nears a surface. Like the paper's contacts it stays out of A. The
// line search never tries a step past the first time of impact that continuous collision detection
// (ccd.h) finds along it (stepBound), so no iterate ever enters a collider. Colliders stand still
// during a frame's solve at their pose at its end; the solve starts from x_n moved towards its guess
// while the colliders move through the frame, each vertex a collider meets carried along by it
// (sweptStart).
//
// kappa adapts (IPC Sec. 4.3 in spirit): it starts at kappa_min, at which the barrier at d^/10 pushes
// the mean vertex mass m with the force that moves it by d^ in a step or holds it against gravity,
// m (d^ / h^2 + |gravity|), and doubles, up to 1e4 kappa_min, after an iteration that leaves some vertex
// closer than 1e-2 d^ and closer than before. The simulation starts each frame at the kappa the last
// one ended with (beginFrame, then setStiffness), as IPC keeps it from step to step.
// Friction (contact_friction > 0) is IPC's lagged friction: a FrictionTerm (objective.h) per vertex
// within d^ of a collider at the frame's start, its bound mu times the normal force kappa |b'(d)| the
// barrier exerted there at the end of the last frame, and its normal, held for the frame, so the
// energy stays a potential for the solve.
// With self_collision.enabled the same barrier, with the same kappa, holds the bodies' surfaces apart
// (SelfBarrier, self_barrier.h) in place of the self-collision penalties.
#include <algorithm>
#include <vector>

#include "core/collision/collider.h"
#include "core/objective/objective.h"

namespace qnsim {

class SelfBarrier;

// b(d) of the comment above, and its first and second derivatives in d (+inf, -inf, +inf at d <= 0).
double barrier(double d, double dhat);
double barrierDerivative(double d, double dhat);
double barrierSecondDerivative(double d, double dhat);

struct BarrierStats {
  double min_distance = 0;  // the smallest distance below d^ (0 when none is)
  int pairs = 0;            // vertex-collider and self-contact pairs closer than d^
  void add(double distance) {  // a pair closer than d^
    min_distance = pairs == 0 ? distance : std::min(min_distance, distance);
    ++pairs;
  }
};

class ContactBarrier {
 public:
  // d^ (m), and kappa_min from the mean vertex mass, the time step and gravity's magnitude.
  ContactBarrier(double dhat, double mean_mass, double time_step, double gravity);
  double dhat() const { return dhat_; }
  double stiffness() const { return stiffness_; }
  double minStiffness() const { return min_stiffness_; }
  // d^ / 100: closer than this the barrier is too soft (adapt doubles kappa), and no frame starts with
  // a pair closer (feasibleStart, SelfBarrier::separation).
  double closeDistance() const;
  void setStiffness(double kappa) { stiffness_ = kappa; }

  // The frame's colliders and self-contact (kept by reference until the next call; self may be null,
  // and its own beginFrame is the caller's); kappa back to kappa_min, and the doubling rule's memory cleared.
  void beginFrame(const std::vector<Collider>& colliders, const SelfBarrier* self);
  // Another self-contact within the frame (tearing rebuilt the surfaces; its beginFrame is the caller's).
  void setSelf(const SelfBarrier* self) { self_ = self; }
  // kappa sum b(d) over vertex-collider pairs and self-contact pairs at x; adds kappa grad b to
  // `gradient` when given.
  double energy(const VecX& x, VecX* gradient) const;
  // The largest alpha in [0, max_alpha] such that no vertex meets a collider, and no self-contact pair
  // meets, on x + [0, alpha] d (conservative: ccd.h), and no vertex moves by more than 1000 d^.
  double stepBound(const VecX& x, const VecX& d, double max_alpha) const;
  // The barrier's curvature at each vertex in its reach at x, in vertex order: the vertex's block of
  // the Gauss-Newton Hessian, kappa b''(d) n n^T for each collider it is within d^ of (n the normal)
  // plus, for each self-contact pair within d^ it is a corner of, kappa m b''(d) g g^T (g its part of
  // grad d: SelfBarrier::addCurvature), as its eigenvectors with their eigenvalues: up to three
  // orthogonal directions per vertex, stiffest first. A bristle pressed by neighbours on several sides
  // is stiff along each of them (one direction per vertex left the others' steep gradients to A^-1,
  // which blew the step up to metres).
  void normalStiffness(const VecX& x, std::vector<NormalStiffness>& out) const;
  // The direction d at x without the part that moves a vertex within d^ of a collider towards it:
  // the barrier is not in A, so a quasi-Newton direction pushes resting vertices into the collider
  // and collision detection then shortens the whole step to almost nothing.
  // With cut_below > 0, only when collision detection against the colliders would cut the step along d
  // below cut_below (a step a direction that sees the barrier's curvature can take is left whole).
  // Returns false, writing nothing, when no vertex's direction changes.
  bool filterDirection(const VecX& x, const VecX& d, double cut_below, VecX& filtered) const;
  // The frame's start for the solve, vertex by vertex: each moves from `from` (x_n, clear of the
  // colliders at the frame's start) towards `guess` while the colliders move over the frame (time step
  // h) from their poses at its start to those at its end. A vertex that comes within d^/2 of a collider
  // on the way rides with it from there: it keeps its motion along the collider's surface and loses
  // the part into it. So a collider moving into a body pushes the vertices it meets ahead of it instead
  // of leaving them behind, inside, for feasibleStart to throw out along its normal; and a vertex
  // stopped by one collider does not stop the others. The result may still lie within d^/2 of a
  // collider (a curved surface slid along, a second collider): feasibleStart takes it out. With
  // `friction` mu > 0 a riding vertex's motion along the surface is shortened by mu times the part into
  // it, down to none (position-based Coulomb friction; the barrier has its own, frictionTerms).
  VecX sweptStart(const VecX& from, const VecX& guess, double time_step, double friction = 0.0) const;
  // The same with the given colliders, at their poses at the end of a motion of duration time_step
  // (contact.push: the rest of the frame, from where they have got to).
  VecX sweep(const std::vector<Collider>& colliders, const VecX& from, const VecX& guess, double time_step,
             double friction = 0.0) const;
  // Vertices inside or within d^/2 of a collider moved out along its normal to d^/2, or to their
  // distance from it at x_n (the colliders at the frame's start, time step h) where that was smaller
  // but not below closeDistance() (from collision detection's floor no step could move the vertex):
  // a vertex resting on a collider keeps the place where the barrier held it, rather than starting
  // the frame lifted to d^/2, from where the solve must climb down the barrier's steepest part again.
  // In order of the colliders; under self-contact no move takes a surface through another (a move that
  // would is cut short, SelfBarrier::limitMoves). Returns how many moved.
  int feasibleStart(VecX& x, const VecX& x_n, double time_step) const;
  // Collision detection for a method that moves vertices without a line search (VBD, Jacobi,
  // position-based FEM; they keep the penalties' forces): its update from `from` to `to`, made to pass
  // through nothing. A vertex that comes within d^/2 of a collider (standing still at its pose at the
  // frame's end) slides along it from there, as in sweptStart; its straight path to where it slid is
  // then cut where it would still reach one (a curved surface); and the moves are cut where self-contact
  // pairs would come within closeDistance() / 2 (SelfBarrier::limitMoves): nothing pushes edges apart
  // under the penalties, so pairs let close in to collision detection's floor would stall every later
  // move (each frame's start moves the pairs closer than closeDistance() apart, as the barrier's does).
  // A sliding vertex feels position-based Coulomb friction `friction` (sweptStart), since the penalties'
  // friction acts only on penetrating vertices. Returns the smallest fraction of a vertex's straight move
  // that the cuts kept (1: none cut).
  double limitMoves(const VecX& from, VecX& to, double friction) const;
  // The frame's lagged friction (the comment above): for each vertex within d^ of a collider at x_n
  // (the colliders at their poses at the frame's start), a term with bound `coefficient` times
  // `last_kappa` |b'(d)| (last_kappa: the barrier's stiffness at the end of the last frame), the
  // normal there, and as anchor x_n carried by the collider through the frame (time step h); `slip`
  // is the Huber width (m). Replaces `out`.
  void frictionTerms(const VecX& x_n, double last_kappa, double coefficient, double slip, double time_step,
                     std::vector<FrictionTerm>& out) const;
  // After an iteration: doubles kappa when its rule (above) says so. Returns true when kappa changed.
  bool adapt(const VecX& x);
  BarrierStats stats(const VecX& x) const;

 private:
  double collidersEnergy(const VecX& x, VecX* gradient) const;
  double collidersStepBound(const VecX& x, const VecX& d, double max_alpha) const;  // stepBound's colliders
  void keepSurfacesApart(const VecX& before, VecX& x) const;                        // feasibleStart's moves

  double dhat_, min_stiffness_, stiffness_;
  double last_min_distance_ = 0;
  const std::vector<Collider>* colliders_ = nullptr;
  const SelfBarrier* self_ = nullptr;
  mutable std::vector<Mat3> blocks_;  // normalStiffness' scratch: one per vertex, zero between calls
};

}  // namespace qnsim
