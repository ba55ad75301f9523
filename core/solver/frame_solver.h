#pragma once
// One frame's solve. FrameMethod is what the simulation runs; FrameSolver is the paper's Algorithm 1,
// shared by every descent solver: starting from x = y, each iteration refreshes the contact set
// (Sec. 4.3), asks the direction solver for d, falls back to the plain direction if d is not a descent
// direction, and runs the backtracking Armijo line search (or the strong Wolfe search of line_search.h).
// Every objective evaluation returns the gradient too, so an accepted trial needs no second pass.
// Position-based FEM (pbd, xpbd; pbd_solver.h), Vertex Block Descent and Jacobi descent (vbd, jacobi;
// vbd_solver.h), Anderson-accelerated PD (anderson_solver.h) and ADMM (admm_solver.h) are the other
// FrameMethods.
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "core/objective/objective.h"
#include "core/solver/direction.h"
#include "qnsim/state.h"

namespace qnsim {

// Refreshes the active contact set at x; returns true when it changed (g must then be re-evaluated).
// It may move x (contact.push: a collider advancing within the solve carries the body with it).
using ContactRefresh = std::function<bool(VecX& x)>;
// The largest step alpha in [0, max_alpha] along d from x that continuous collision detection allows
// (contact.model=barrier, core/collision/barrier.h): no trial goes farther.
using StepBound = std::function<double(const VecX& x, const VecX& d, double max_alpha)>;
// A direction from x that the step bound lets through where it stops d at x itself (the inversion
// guard: a tet as flat as round-off allows that d would flatten further), written over d; returns false,
// leaving d as it is, when it has none.
using StepRescue = std::function<bool(const VecX& x, VecX& d)>;
// A changed descent direction at x, written to `filtered`, before its step is bounded (the barrier's
// filter of resting contacts); returns false, writing nothing, when it leaves d as it is. With
// cut_below > 0, only where collision detection would cut the step along d below cut_below: the solver
// passes 1/2 for a direction solver that sees the barrier's curvature (ours), whose steps towards the
// colliders it can take the filter would only stop, keeping resting vertices from settling where the
// barrier holds their weight; and 0 (always) for the others.
using DirectionFilter = std::function<bool(const VecX& x, const VecX& d, double cut_below, VecX& filtered)>;
// A method's update of the vertices from `from` to `to`, cut where collision detection finds it would
// pass through a collider or a self-contact pair (contact.model=barrier, for the methods that move
// vertices without a line search); returns the smallest fraction of a vertex's move it kept (1: none cut).
using MoveLimit = std::function<double(const VecX& from, VecX& to)>;

class FrameMethod {
 public:
  virtual ~FrameMethod() = default;
  // Live edits (iterations, line-search constants, tolerance, PBD stiffnesses) from the next frame on.
  virtual void setSettings(const SolverSettings& settings) = 0;
  virtual void setContactRefresh(ContactRefresh refresh) = 0;
  // Bounds every step of the line search by continuous collision detection. Only a method that
  // boundsSteps() can run the barrier (contact.model=barrier); the others keep the penalties, their
  // updates cut by collision detection (setMoveLimit).
  virtual void setStepBound(StepBound /*bound*/) {}
  virtual void setDirectionFilter(DirectionFilter /*filter*/) {}
  virtual void setStepRescue(StepRescue /*rescue*/) {}
  virtual bool boundsSteps() const { return false; }
  // For a method that does not bound steps (VBD, Jacobi, position-based FEM): every update of
  // the vertices it makes passes through `limit`, the smallest fraction kept going to result.ccd_step.
  virtual void setMoveLimit(MoveLimit /*limit*/) {}
  // x: in, the initial guess (y); out, the frame's solution.
  virtual void solve(VecX& x, FrameSolveResult& result) = 0;
  // What the method carries from one frame to the next (PBD's rotation estimates, Chebyshev's estimated
  // rho), written into and read from a SimState; an empty one starts afresh.
  virtual void saveHistory(SimState& /*state*/) const {}
  virtual void loadHistory(const SimState& /*state*/) {}
  // Matrix factorizations done by the method itself (Newton's per-iteration Hessians).
  virtual long factorizations() const { return 0; }
};

// The method of solver.method: FrameSolver around its direction solver, or one of the others.
std::unique_ptr<FrameMethod> makeFrameMethod(const SolverSettings& settings, Objective& objective, SystemMatrix& system);

class FrameSolver final : public FrameMethod {
 public:
  FrameSolver(Objective& objective, DirectionSolver& solver, const SolverSettings& settings);
  // The same, owning its direction solver.
  FrameSolver(Objective& objective, std::unique_ptr<DirectionSolver> solver, const SolverSettings& settings);
  void setSettings(const SolverSettings& settings) override {
    settings_ = settings;
    solver_.setSettings(settings);
  }
  void setContactRefresh(ContactRefresh refresh) override { refresh_ = std::move(refresh); }
  void setStepBound(StepBound bound) override { bound_ = std::move(bound); }
  void setDirectionFilter(DirectionFilter filter) override { filter_ = std::move(filter); }
  void setStepRescue(StepRescue rescue) override { rescue_ = std::move(rescue); }
  bool boundsSteps() const override { return true; }
  void solve(VecX& x, FrameSolveResult& result) override;
  long factorizations() const override { return solver_.factorizations(); }
  void saveHistory(SimState& state) const override { solver_.saveHistory(state); }
  void loadHistory(const SimState& state) override { solver_.loadHistory(state); }

 private:
  struct Trial {
    double alpha;
    int trials;
  };
  Trial lineSearch(const VecX& x, double g, double slope, const VecX& d);
  Trial wolfeSearch(const VecX& x, double g, double slope, const VecX& d);
  // Armijo backtracking, by a fixed factor or by interpolation.
  bool backtracks() const { return settings_.line_search == LineSearchKind::Armijo || settings_.line_search == LineSearchKind::Interpolate; }

  std::unique_ptr<DirectionSolver> owned_;  // when constructed owning
  Objective& objective_;
  DirectionSolver& solver_;
  SolverSettings settings_;
  ContactRefresh refresh_;
  StepBound bound_;
  DirectionFilter filter_;
  StepRescue rescue_;
  double step_limit_ = INFINITY;  // trials beyond this alpha are refused (the step bound, for Wolfe's extrapolation)
  double round_off_step_ = 0;  // steps no longer than this (m) are round-off
  // Scratch, reused every frame (no allocation in the frame loop after the first).
  VecX gradient_, direction_, trial_x_, trial_gradient_, filtered_;
  EnergyParts parts_, trial_parts_;
  std::vector<double> partial_;  // block sums of the frame loop's inner products
  double trial_g_ = 0;
  bool defer_gradient_ = false;  // whether trials defer their gradients (see lineSearch)
  int frame_rejections_ = 0;     // trials rejected so far in this frame
};

}  // namespace qnsim
