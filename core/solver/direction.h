#pragma once
// The solvers of the paper behind one small interface: each computes a descent direction d at x;
// the frame loop (frame_solver.h) runs Alg. 1 around it with the shared line search and telemetry.
#include <memory>

#include "qnsim/settings.h"
#include "qnsim/state.h"
#include "qnsim/telemetry.h"

namespace qnsim {

class Objective;
class SystemMatrix;

class DirectionSolver {
 public:
  virtual ~DirectionSolver() = default;
  // Forgets any history; called at the start of each frame and when the objective changes in a frame.
  virtual void reset() {}
  // A live edit of the settings (Effect::Live), between frames.
  virtual void setSettings(const SolverSettings& /*settings*/) {}
  // Setup that needs the frame's objective, done before the frame's solve is timed (Chebyshev's
  // training run on the first frame); x is the frame's initial guess.
  virtual void prepare(const VecX& /*x*/) {}
  // d := a descent direction at x, given grad g(x).
  virtual void direction(const VecX& x, const VecX& gradient, VecX& d, PhaseTimes& times) = 0;
  // After an accepted step from x_k to x_{k+1}, with the gradients of g at both.
  virtual void update(const VecX& /*x*/, const VecX& /*x_next*/, const VecX& /*gradient*/, const VecX& /*gradient_next*/) {}
  // Matrix factorizations done by the solver itself (Newton's per-iteration Hessians).
  virtual long factorizations() const { return 0; }
  // Whether its directions see the contact barrier's curvature along the contact normals (ours'
  // initial Hessian, initial_hessian.cpp), so that the filter of resting contacts applies to them only
  // where collision detection would cut their step (DirectionFilter, frame_solver.h).
  virtual bool seesBarrierCurvature() const { return false; }
  // What it carries from frame to frame, for FrameMethod::saveHistory and loadHistory.
  virtual void saveHistory(SimState& /*state*/) const {}
  virtual void loadHistory(const SimState& /*state*/) {}
};

// qn: L-BFGS (Alg. 2) with A0 = A, window m; pd: the same with m = 0, i.e. d = -A^-1 grad g, which is
// exactly one Projective Dynamics local/global step (Sec. 4); newton: projected Newton; gd: gradient
// descent in the mass metric; chebyshev: Alg. 3; hecht: Hecht et al. 2012, d = -A0^-1 grad g with their
// stale, warped Hessian (makeHechtHessian). pbd and xpbd take no directions (makeFrameMethod, frame_solver.h).
std::unique_ptr<DirectionSolver> makeDirectionSolver(const SolverSettings& settings, Objective& objective, SystemMatrix& system);

}  // namespace qnsim
