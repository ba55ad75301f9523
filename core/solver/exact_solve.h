#pragma once
// x* of Eq. 12: the exact solution of a frame, for relative errors and reference runs.
#include <memory>

#include "core/objective/objective.h"
#include "core/solver/frame_solver.h"
#include "core/solver/system_matrix.h"

namespace qnsim {

class NewtonSolver;

// Solves the objective's current frame from x: L-BFGS (m = 20, at most 1000 iterations) and then
// projected Newton (at most 10), both with the Armijo line search, until |grad g| <= 1e-10 |grad g(x)|
// or no step decreases g. The paper iterates Newton alone; the minimiser is the same, reached sooner.
// The Newton solver is kept from frame to frame, so that its Hessian's pattern, fixed for the model,
// is analysed once; make a new ExactSolver when A changes.
class ExactSolver {
 public:
  ExactSolver(Objective& objective, SystemMatrix& system);
  ~ExactSolver();
  // Returns g(x*) and writes x*, every step bounded by `bound` when given (the barrier's collision
  // detection: x must then start where nothing touches).
  double solve(VecX& x, const StepBound& bound = {});

 private:
  Objective& objective_;
  SystemMatrix& system_;
  std::unique_ptr<NewtonSolver> newton_;  // made when first needed
};

}  // namespace qnsim
