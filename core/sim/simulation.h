#pragma once
// A running simulation of a Scene: backward Euler (or another integrator, integrator.h) as the
// minimisation of g (Eq. 3), one frame per step, solved by the chosen method inside Alg. 1. The GUI and the headless program drive the same
// object; the GUI only reads state and sends edits between frames.
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "core/collision/self_contacts.h"
#include "core/model/removal.h"
#include "core/objective/objective.h"
#include "core/scene/scene.h"
#include "core/sim/build_model.h"
#include "core/sim/integrator.h"
#include "core/sim/telemetry.h"
#include "core/solver/direction.h"
#include "core/solver/exact_solve.h"
#include "core/solver/frame_solver.h"
#include "core/solver/system_matrix.h"

namespace qnsim {

class Simulation {
 public:
  explicit Simulation(Scene scene);
  ~Simulation();

  // Advances one frame (time step h).
  void step();
  // Back to the scene's initial state, every removed element back (settings edits are kept).
  void reset();

  const Scene& scene() const { return scene_; }
  const Settings& settings() const { return settings_; }
  // Applies new settings between frames, doing what the changed parameters' declared effects ask
  // (parameters.h: live, a new direction solver, or a new system matrix).
  void setSettings(const Settings& settings);

  const Model& model() const { return built_.model; }
  const std::vector<HandleState>& handles() const { return built_.handles; }
  const VecX& positions() const { return x_; }
  const VecX& velocities() const { return v_; }
  void setState(const VecX& x, const VecX& v);
  // The colliders as posed at the current time (keyframed ones move).
  const std::vector<Collider>& colliders() const { return colliders_; }
  // The self-collision primitives and detection (self_contacts.h), for measurements and tests.
  SelfCollision& selfCollision() { return *self_collision_; }
  int frame() const { return frame_; }
  double time() const { return time_; }
  Objective& objective() { return *objective_; }

  // Live edits (the sandbox), applied between frames; implemented in simulation_edits.cpp.
  // setMaterial replaces a region's material by one of the same kind (solid or spring): g and grad g use
  // it from the next frame on, k is refitted (Eq. 11), and if k changed A = M/h^2 + L is refactored on a
  // background thread and swapped in at the start of the first frame after it is ready. Until then the
  // old A keeps preconditioning (A only has to be positive definite for the directions to descend), so an
  // edit never stalls a frame. Throws qnsim::Error for a bad region index or a material of the wrong kind.
  void setMaterial(int region, std::unique_ptr<Material> material);
  // Holds vertices where they are now with attachment springs (a handle named "pinned"); vertices
  // already attached are skipped. unpinVertices releases every attachment on the vertices, scene
  // handles' too. Both change L, so A is refactored in the background as above. pinVertices throws
  // qnsim::Error for a vertex out of range or a stiffness that is not positive and finite.
  void pinVertices(const std::vector<int>& vertices, double stiffness);
  void unpinVertices(const std::vector<int>& vertices);
  // Removes the elements crossed by the cut surface at the current positions (removal.h) and returns how
  // many were removed. Like tearing at the end of a frame (and reset or restoreState bringing elements
  // back), it does to A what tearing.matrix says: nothing (keep), or a refactorisation in the background
  // as above (refactor).
  int cut(const CutWedge& wedge);
  const SystemMatrix& systemMatrix() const { return *system_; }  // A as the solvers use it now
  // Counts removals and restorations of elements, so that views know when to rebuild their surfaces.
  int topologyVersion() const { return topology_version_; }
  bool refactorPending() const { return pending_system_.valid(); }
  // Waits for a pending refactorisation and swaps it in (tests and scripted runs).
  void finishRefactor() { adoptRefactor(true); }

  // The dynamic state, for save and load: with the removed (torn or cut) elements, which change what the
  // positions mean. Edits (materials, pins, settings) are not part of it.
  struct State {
    int frame = 0;
    double time = 0;
    VecX x, v;
    ElementSet removed;
  };
  State state() const { return {frame_, time_, x_, v_, removedElements(built_.model)}; }
  // Restores exactly the state's removed elements (bringing back the others), doing to A what
  // tearing.matrix says if that changes them. Throws qnsim::Error, changing nothing, when the vertex count
  // differs from the model's or a removed element does not exist.
  void restoreState(const State& state);

  const FrameRecord& lastFrame() const { return record_; }
  // Why the last frame was rolled back (empty when it was not): the sandbox and the CLI show it.
  const std::string& lastWarning() const { return warning_; }
  const FrameSolveResult& lastSolve() const { return solve_; }

  // Solves the next frame from the current state with each of `methods` and exactly (Newton to
  // convergence from the same y), without advancing the simulation. Each trace has the method's
  // iterations, timings and the relative error of Eq. 12 per iterate, against one shared g*.
  struct MethodTrace {
    SolverSettings method;
    FrameSolveResult result;
    std::vector<double> rel_error;
  };
  std::vector<MethodTrace> compareNextFrame(const std::vector<SolverSettings>& methods);

  // With a reference, each step first solves its frame exactly (Newton to convergence from the same
  // y) and reports the relative error of Eq. 12 for every iterate: (g_k - g*) / (g_0 - g*).
  void setReferenceEnabled(bool enabled) { reference_enabled_ = enabled; }
  bool referenceEnabled() const { return reference_enabled_; }
  const std::vector<double>& lastRelativeErrors() const { return rel_error_; }

 private:
  void createSolvers();
  ContactRefresh contactRefresh();
  void poseColliders(double t);
  void prepareFrame(double t);  // handle targets at time t, y and the inertia term
  double inertiaWeight() const { return 1.0 / (settings_.time_step * settings_.time_step); }
  double stiffnessScale() const;  // c s^2 of the integrator: A = M/h^2 + c s^2 L + d L_e
  void computeReference(const VecX& y);
  void measure(double frame_ms, double reference_ms = 0.0);
  void rollBack();
  void requestRefactor();
  void adoptRefactor(bool wait);
  void tear();  // removes the elements stretched past their material's tear_strain
  void topologyChanged();

  Scene scene_;
  Settings settings_;
  BuiltModel built_;
  std::unique_ptr<Objective> objective_;
  std::unique_ptr<SystemMatrix> system_;
  std::unique_ptr<FrameMethod> frame_method_;
  // The methods the last compareNextFrame ran, kept for the next one until A changes, so that a
  // method's set-up (Newton's symbolic analysis of its Hessian's fixed pattern) is done once, as in a
  // run, and not timed in every comparison.
  std::vector<std::pair<SolverSettings, std::unique_ptr<FrameMethod>>> compared_methods_;
  std::unique_ptr<ExactSolver> exact_solver_;  // x* of the reference, remade with A like the methods
  std::unique_ptr<SelfCollision> self_collision_;
  std::vector<Collider> colliders_;  // the scene's colliders posed at the current time
  VecX x_, v_, x_start_, v_start_;
  VecX x_previous_, v_previous_;  // the step before this one, for BDF2
  VecX v_dragged_, v_previous_dragged_;  // v_n and v_n-1 after the drag (damping.h)
  Prediction prediction_;                // y, o and x^ of this step (integrator.h)
  int frame_ = 0;
  double time_ = 0;
  FrameSolveResult solve_;
  FrameRecord record_;
  bool reference_enabled_ = false;
  std::vector<double> rel_error_;
  std::string warning_;
  std::future<std::unique_ptr<SystemMatrix>> pending_system_;  // a background refactorisation
  bool pending_is_stale_ = false;     // the model changed after it started: swapped in all the same, then relaunched
  bool pending_is_obsolete_ = false;  // h or k changed after it started: dropped, as setSettings rebuilt A
  int torn_ = 0;                      // elements torn at the end of the last frame
  int topology_version_ = 0;
  // Vertices left without elements: held where they are (their mass is a point with no body, and a
  // stiff contact on it alone would stall the line search).
  std::vector<int> detached_;
  long retired_factorizations_ = 0;  // by system matrices replaced since the start
};

}  // namespace qnsim
