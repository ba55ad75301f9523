#pragma once
// The strong Wolfe line search with zoom (Nocedal and Wright, Alg. 3.5 and 3.6), the paper's
// alternative to backtracking (Sec. 5 of the paper; solver.line_search=wolfe). On phi(alpha) =
// g(x + alpha d) it finds a step with
//   sufficient decrease  phi(alpha) <= phi(0) + c1 alpha phi'(0)   and
//   strong curvature     |phi'(alpha)| <= c2 |phi'(0)|,   0 < c1 < c2 < 1.
// Every evaluation gives the value and the slope together (the objective's gradient comes with g).
#include <functional>

namespace qnsim {

struct LinePoint {
  double alpha = 0, value = 0, slope = 0;  // phi(alpha) and phi'(alpha)
};

// Evaluates the trial step alpha (and leaves it as the current trial, for the caller to adopt).
using LineFunction = std::function<LinePoint(double alpha)>;

struct LineSearchResult {
  LinePoint point;      // the step taken: a strong Wolfe point, or the best one seen if none was found
  int trials = 0;       // evaluations of phi
  bool wolfe = false;   // whether `point` satisfies both conditions
};

// `start` is phi at alpha = 0 (with phi'(0) < 0). The search tries alpha = 1 first, doubles it up to
// 64 while the step is too short, and zooms into a bracket with safeguarded quadratic interpolation.
// After `max_trials` evaluations it returns the best point that satisfies sufficient decrease (or the
// lowest one that decreases phi, or alpha = 0).
LineSearchResult strongWolfe(const LineFunction& phi, const LinePoint& start, double c1, double c2, int max_trials);

// The next trial of a backtracking search after `rejected` failed the Armijo test (Nocedal and Wright
// Sec. 3.5): the minimiser of the quadratic through phi(0), phi'(0) and phi(rejected) on the first
// backtrack (`previous` null), then of the cubic through phi(0), phi'(0) and the last two rejected
// trials; safeguarded to [0.1, 0.5] times the rejected step so that it neither stalls nor barely moves.
// Only values are used: a slope far from the start says little about where phi turns.
double interpolatedBacktrack(const LinePoint& start, const LinePoint& rejected, const LinePoint* previous);
}  // namespace qnsim
