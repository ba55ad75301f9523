#pragma once
// The initial Hessian approximation A0 of L-BFGS (Alg. 2 line 7: r := A0^-1 q). The paper's choice is
// A = M/h^2 + L; Fig. 8 compares it with the alternatives here.
#include <memory>

#include "core/solver/direction.h"
#include "core/solver/linear/sparse_cholesky.h"
#include "core/solver/system_matrix.h"
#include "qnsim/settings.h"

namespace qnsim {

class InitialHessian {
 public:
  virtual ~InitialHessian() = default;
  // A frame starts at x: called once per frame, before its first reset (Hecht et al.'s baseline counts
  // frames here and refactors at the first apply of every N-th, so the factorization is timed).
  virtual void prepare(const VecX& /*x*/) {}
  // A new frame starts, or the contact set changed within one (the per-frame Hessian factors here, at
  // the first apply).
  virtual void reset() {}
  // q := A0^-1 q at the iterate x. `s` and `t` are the newest L-BFGS pair, or null if there is none.
  virtual void apply(const VecX& x, VecX& q, const VecX* s, const VecX* t) = 0;
  virtual long factorizations() const { return 0; }
  virtual bool seesBarrierCurvature() const { return false; }  // DirectionSolver's
};

// settings.linear_solver = cg solves ours (A), the rest-pose and the per-frame Hessian by preconditioned
// conjugate gradients (settings.cg_preconditioner) instead of a Cholesky factor.
std::unique_ptr<InitialHessian> makeInitialHessian(InitialHessianKind kind, Objective& objective, SystemMatrix& system,
                                                   const SolverSettings& settings);

// The Hecht et al. 2012 baseline of Fig. 10: the projected Hessian refactored at the first iterate of
// every `refresh_frames`-th frame and warped by per-vertex rotations in the frames between.
std::unique_ptr<InitialHessian> makeHechtHessian(Objective& objective, int refresh_frames);

// The stiffness-warping rotation of each vertex at x: the polar factor of the volume-weighted mean
// deformation gradient of its tets (identity for vertices without tets).
std::vector<Mat3> vertexRotations(const Model& model, const VecX& x);

}  // namespace qnsim
