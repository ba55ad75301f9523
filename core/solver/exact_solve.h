#pragma once
// x* of Eq. 12: the exact solution of a frame, for relative errors and reference runs.
#include "core/objective/objective.h"
#include "core/solver/system_matrix.h"

namespace qnsim {

// Solves the objective's current frame from x: L-BFGS (m = 20, at most 1000 iterations) and then
// projected Newton (at most 10), both with the Armijo line search, until |grad g| <= 1e-10 |grad g(x)|
// or no step decreases g. The paper iterates Newton alone; the minimiser is the same, reached sooner.
// Returns g(x*) and writes x*.
double solveExactly(Objective& objective, SystemMatrix& system, VecX& x);

}  // namespace qnsim
