#pragma once
// Inside a Simulation (qnsim/simulation.h). The scene holds the settings and the materials (the
// model's regions share their materials with it), the SimState holds what changes from frame to
// frame, and everything else here is derived from those two: the model's attachments and removed
// flags, A, the method built on A, the per-frame terms of g. simulation.cpp steps (frame_contacts.cpp
// its contacts, collider_push.cpp the colliders pushing within the solve), simulation_edits.cpp
// applies edits, simulation_matrix.cpp keeps A in step with the model, simulation_compare.cpp solves
// frames for comparisons and reference errors.
#include <cmath>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/collision/barrier.h"
#include "core/collision/self_barrier.h"
#include "core/collision/self_contacts.h"
#include "core/model/removal.h"
#include "core/objective/objective.h"
#include "core/sim/build_model.h"
#include "core/sim/integrator.h"
#include "core/solver/exact_solve.h"
#include "core/solver/frame_solver.h"
#include "core/solver/system_matrix.h"
#include "qnsim/simulation.h"

namespace qnsim {

struct Simulation::Impl {
  Impl(Scene scene, SimulationOptions options);

  // simulation.cpp: a frame.
  void step();
  void prepareFrame(double t);  // handle targets at time t, y and the terms of g
  void rollBack();
  void measure(double frame_ms, double reference_ms = 0.0);
  void poseColliders(double t);
  // frame_contacts.cpp: the frame's contacts.
  ContactRefresh contactRefresh();
  StepBound stepBound();
  DirectionFilter directionFilter();
  // guard_rescue.cpp: a direction for a step the inversion guard stops at x.
  StepRescue stepRescue();
  bool rescueStep(const VecX& x, VecX& d);
  void connect(FrameMethod& m);  // simulation_matrix.cpp: the four hooks above, for a method of this simulation
  bool guardsInversion() const;  // solver.inversion_guard, under a method that bounds its steps
  // The frame's barrier (contact.model=barrier, for a method that bounds its steps), or its guard (for
  // one that does not), and a start x before any impact or flat tet.
  void prepareStart(VecX& x, bool bounds_steps);
  ContactBarrier frameBarrier() const;  // with this frame's d^ and kappa_min
  VecX slidingStart(const VecX& toward) const;  // the start's direction under self-contact
  VecX clearStart(ContactBarrier& b, const VecX& toward, double alpha);  // x_n + alpha toward, clear of the colliders
  VecX contactReaction();                          // the last frame's contact forces, from its motion
  void addSelfFriction(const VecX& reaction, double kappa);  // self-contact's lagged friction terms
  // collider_push.cpp (contact.push): colliders that push the body within the solve.
  bool pushes() const;          // contact.push, under the barrier this frame
  void carryColliderLag();      // after poseColliders: this frame's motion starts where the colliders stood
  void standColliders();        // after poseColliders outside a frame: the colliders where the state says they stood
  void placeColliders(double progress);  // at this share of the frame's motion
  bool pushColliders(VecX& x);  // before an iteration: the colliders advance, the body with them
  // Where a push takes x while the colliders move to `to_poses` over `duration` seconds.
  VecX pushMotion(const VecX& x, const std::vector<Collider>& to_poses, double duration);
  double colliderLag() const;   // how far behind their script (m, the largest)
  // The smallest distance of a vertex of x to a collider (negative inside one), or `reach` when none is closer.
  double colliderClearance(const VecX& x, double reach) const;
  double inertiaWeight() const { return 1.0 / (settings().time_step * settings().time_step); }
  // Where a method's solve of this frame starts (solver.initial_guess).
  const VecX& startOf(const SolverSettings& solver) const {
    switch (solver.initial_guess) {
      case InitialGuess::Adaptive: return prediction.adaptive_guess;
      case InitialGuess::Previous: return state.x;
      default: return prediction.y;
    }
  }
  double stiffnessScale() const;  // c s^2 of the integrator: A = M/h^2 + c s^2 L + d L_e
  const Settings& settings() const { return scene.settings; }

  // simulation_edits.cpp: apply(Edit), one function per kind of edit.
  EditResult apply(const Edit& edit);
  EditResult setParameter(const SetParameter& edit);
  EditResult setMaterial(const std::string& region, std::shared_ptr<const Material> material);
  EditResult pin(const PinVertices& edit);
  EditResult unpin(const UnpinVertices& edit);
  EditResult setDrag(const SetDrag& edit);
  EditResult cut(const Cut& edit);
  EditResult setCollider(const SetCollider& edit);
  EditResult load(const SimState& loaded);
  EditResult reset();
  void tear();  // removes the elements stretched past their material's tear_strain
  void topologyChanged();
  void attachmentsChanged();  // rebuilds the model's attachments from the scene's handles and the state's pins
  SimState currentState() const;

  // simulation_matrix.cpp: A and the methods built on it.
  void createMethods();
  void requestRefactor(const ElementSet& removed);
  void adoptRefactor(bool wait);
  bool refactorPending() const { return pending.valid(); }

  // simulation_compare.cpp
  void computeReference(const VecX& start);
  std::vector<MethodTrace> compareNextFrame(const std::vector<Method>& methods);
  std::vector<std::pair<SolverSettings, std::unique_ptr<FrameMethod>>> comparedMethods(const std::vector<SolverSettings>& solvers);

  Scene scene;  // with every edit of its settings and materials
  const SimulationOptions options;
  BuiltModel built;               // the model; its handles without the pins
  std::vector<Attachment> scene_attachments;  // the handles' attachments as built, before any unpin
  SimState state;                 // its method history aside, which the method holds (currentState)
  SimState initial;               // what Reset loads, with the pins made since
  std::unique_ptr<Objective> objective;
  std::unique_ptr<SystemMatrix> system;
  std::unique_ptr<FrameMethod> method;
  // The methods the last compareNextFrame ran, kept for the next one until A changes, so that a
  // method's set-up (Newton's symbolic analysis of its Hessian's fixed pattern) is done once, as in a
  // run, and not timed in every comparison.
  std::vector<std::pair<SolverSettings, std::unique_ptr<FrameMethod>>> compared_methods;
  std::unique_ptr<ExactSolver> exact_solver;  // x* of the reference, remade with A like the methods
  std::unique_ptr<SelfCollision> self_collision;
  std::unique_ptr<SelfBarrier> self_barrier;  // on self_collision's primitives: self-contact under the barrier
  std::optional<ContactBarrier> barrier;  // contact.model=barrier: this frame's (barrier.h)
  // contact.model=barrier under a method that cannot bound its steps: collision detection on its
  // updates (ContactBarrier::limitMoves), the barrier itself left out of g.
  std::optional<ContactBarrier> guard;
  double rest_diagonal = 0;                // of the rest shape's bounding box, the unit of contact.dhat
  std::vector<Collider> colliders;  // the scene's colliders posed at the current time
  // contact.push: the colliders' poses at the frame's end (colliders then holds where they have got to),
  // and the share of the frame's motion made (where they stood when a frame ended short: SimState).
  std::vector<Collider> collider_ends;
  double collider_progress = 1.0;

  // A: the removed elements it was (or is being) factored without; a refactorisation running on a
  // worker thread; and a loaded method history to give the method built on it (load).
  ElementSet matrix_removed;
  std::future<std::unique_ptr<SystemMatrix>> pending;
  bool pending_is_stale = false;  // the model changed after it started: swapped in all the same, then relaunched
  std::optional<SimState> history_for_new_method;
  long retired_factorizations = 0;  // by system matrices replaced since the start

  // The frame in progress.
  VecX x_start, v_start;                // x_n and v_n
  VecX v_dragged, v_previous_dragged;   // v_n and v_n-1 after the drag (damping.h)
  Prediction prediction;                // y, o and x^ of this step (integrator.h)
  FrameSolveResult solve;
  FrameRecord record;
  bool reference_enabled = false;
  bool check_intersections = false;
  std::vector<double> rel_error;
  std::string warning;
  int torn = 0;  // elements torn at the end of the last frame
  int topology_version = 0;
  // Vertices left without elements: held where they are (their mass is a point with no body, and a
  // stiff contact on it alone would stall the line search).
  std::vector<int> detached;
};

// Eq. 12 for every iterate: (g_k - g*) / (g_0 - g*), g_0 the first iterate's g unless given (a method
// that starts elsewhere than y is measured against g(y) in comparisons).
void relativeErrors(const std::vector<IterationRecord>& iterations, double g_star, std::vector<double>& out, double g_0 = NAN);

// For qnsim's own tools and tests, which look inside (not installed).
Simulation::Impl& internals(Simulation& simulation);
inline const Simulation::Impl& internals(const Simulation& simulation) { return internals(const_cast<Simulation&>(simulation)); }

}  // namespace qnsim
