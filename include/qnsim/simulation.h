#pragma once
// A running simulation of a Scene: one frame per step(), each frame one minimisation of
//   g(x) = 1/(2h^2) |x - y|^2_M + E(x)   (paper Eq. 3; other integrators in docs/scene_format.md)
// by the method of settings().solver (our L-BFGS with A = M/h^2 + L by default) inside the paper's
// Algorithm 1. Its constant half is the Model, its changing half one SimState; every change goes
// through apply(Edit).
//
// Threads: a Simulation is not thread-safe; call it from one thread at a time (the sandbox runs it on
// a thread of its own and sends it edits there). step() uses settings().threads worker threads for its
// element loops, and refactorisations of A run on a thread of their own; results do not depend on the
// thread count. Separate Simulations may run on separate threads.
// Errors: bad input (a scene, an edit, a state) throws qnsim::Error with a message naming the file,
// field, key or vertex, and leaves the simulation as it was. A frame whose solve diverges does not
// throw: it is rolled back to its last good positions with zero velocity, and lastWarning() says so.
#include <memory>
#include <string>
#include <vector>

#include "qnsim/collider.h"
#include "qnsim/edit.h"
#include "qnsim/method.h"
#include "qnsim/model.h"
#include "qnsim/scene.h"
#include "qnsim/state.h"
#include "qnsim/telemetry.h"

namespace qnsim {

struct SimulationOptions {
  // When the new A of an edit (a material constant, a pin, the time step; refactored on a worker thread)
  // is swapped in. true: at the start of the next frame, waiting for it if need be, so that a run is the
  // same whatever the timing (headless runs, scripts, tests). false: at the start of the first frame
  // after it is ready, so that no frame waits (the sandbox); until then the old A keeps preconditioning,
  // which only has to be positive definite for the directions to descend.
  bool wait_for_refactor = true;
};

// A method's solve of the next frame (compareNextFrame), with the relative error of Eq. 12 per iterate.
struct MethodTrace {
  std::string label;
  SolverSettings settings;
  FrameSolveResult result;
  std::vector<double> rel_error;
};

class Simulation {
 public:
  // Builds the model and factors A; throws qnsim::Error naming the body for problems only visible now
  // (a region without a material, a handle that selects no vertex, a scene too large for the memory).
  explicit Simulation(Scene scene, SimulationOptions options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Advances one frame of settings().time_step seconds.
  void step();
  // Changes the simulation between frames (edit.h). Throws qnsim::Error, changing nothing, on bad input.
  EditResult apply(const Edit& edit);

  // The state after the last frame: a copy to keep, compare or load again (apply(LoadState{...})).
  SimState state() const;
  int frame() const;
  double time() const;
  const VecX& positions() const;   // 3n, metres
  const VecX& velocities() const;  // 3n, m/s

  // The scene with every edit applied to its settings, materials and colliders (bodies and meshes as given).
  const Scene& scene() const;
  // The scene as Save writes it (writeScene): scene() with the pins made handles (held where they were
  // pinned) and the released handle vertices left out of their handles; with `removed_elements`, the
  // removed (torn or cut) elements too. Opened fresh, it runs the frames this simulation runs after a
  // Reset (with `removed_elements`, after a Reset that keeps them removed).
  Scene savedScene(bool removed_elements = false) const;
  const Settings& settings() const;
  // The value of a setting or of a material constant "material.NAME.PARAMETER" (a double).
  ParameterValue value(const std::string& key) const;
  const Model& model() const;
  // The colliders as posed at the current time (keyframed ones move).
  const std::vector<Collider>& colliders() const;

  const FrameRecord& lastFrame() const;
  const FrameSolveResult& lastSolve() const;
  // Why the last frame was rolled back (empty when it was not).
  const std::string& lastWarning() const;

  // Whether a refactorisation of A is still running; finishRefactor waits for it and swaps it in.
  bool refactorPending() const;
  void finishRefactor();
  // Counts removals and restorations of elements, so that views know when to rebuild their surfaces.
  int topologyVersion() const;

  // Solves the next frame from the current state with each method and exactly (Newton to convergence
  // from the same y), without advancing: the state after it is the state before. Each trace has the
  // method's iterates and the relative error of Eq. 12 per iterate, against one shared g*. Every method
  // keeps A (methodEffect at most NewDirectionSolver); throws qnsim::Error naming one that does not.
  std::vector<MethodTrace> compareNextFrame(const std::vector<Method>& methods);

  // With a reference, each step first solves its frame exactly and reports the relative error of
  // Eq. 12 for every iterate, (g_k - g*) / (g_0 - g*), in lastRelativeErrors().
  void setReferenceEnabled(bool enabled);
  bool referenceEnabled() const;
  // With the check, each frame counts the surfaces' intersections exactly at its end (FrameRecord::intersections).
  void setIntersectionCheck(bool enabled);
  const std::vector<double>& lastRelativeErrors() const;

  struct Impl;  // core/sim/simulation_impl.h

 private:
  friend Impl& internals(Simulation& simulation);
  std::unique_ptr<Impl> impl_;
};

}  // namespace qnsim
