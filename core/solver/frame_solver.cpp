#include "core/solver/frame_solver.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "core/common/timer.h"
#include "core/common/vector_blocks.h"
#include "core/solver/line_search.h"
#include "core/solver/admm_solver.h"
#include "core/solver/anderson_solver.h"
#include "core/solver/pbd_solver.h"
#include "core/solver/vbd_solver.h"

namespace qnsim {
namespace {

// out = x + alpha d, the line search's trial point (each entry on its own: the same bits on any
// thread count).
void trialPoint(const VecX& x, double alpha, const VecX& d, VecX& out) {
  out.resize(x.size());
  forVectorBlocks(x.size(), [&](Eigen::Index b, Eigen::Index n) { out.segment(b, n) = x.segment(b, n) + alpha * d.segment(b, n); });
}

// <g, d> (block sums added in block order) and max |d_i|, in one pass.
std::pair<double, double> slopeAndLargestMove(const VecX& g, const VecX& d, std::vector<double>& partial) {
  partial.resize(2 * static_cast<std::size_t>(vectorBlockCount(d.size())));
  forVectorBlocks(d.size(), [&](Eigen::Index b, Eigen::Index n) {
    partial[2 * (b / kVectorBlock)] = g.segment(b, n).dot(d.segment(b, n));
    partial[2 * (b / kVectorBlock) + 1] = d.segment(b, n).lpNorm<Eigen::Infinity>();
  });
  double slope = 0.0, largest = 0.0;
  for (std::size_t i = 0; i < partial.size(); i += 2) slope += partial[i], largest = std::max(largest, partial[i + 1]);
  return {slope, largest};
}

}  // namespace

std::unique_ptr<FrameMethod> makeFrameMethod(const SolverSettings& settings, Objective& objective, SystemMatrix& system) {
  switch (settings.method) {
    case SolverMethod::Pbd:
    case SolverMethod::Xpbd: return std::make_unique<PbdSolver>(objective, settings);
    case SolverMethod::Vbd:
    case SolverMethod::Jacobi: return std::make_unique<VertexSolver>(objective, settings);
    case SolverMethod::Anderson: return std::make_unique<AndersonSolver>(objective, system, settings);
    case SolverMethod::Admm: return std::make_unique<AdmmSolver>(objective, system, settings);
    default: break;
  }
  return std::make_unique<FrameSolver>(objective, makeDirectionSolver(settings, objective, system), settings);
}

FrameSolver::FrameSolver(Objective& objective, DirectionSolver& solver, const SolverSettings& settings)
    : objective_(objective), solver_(solver), settings_(settings) {
  const auto rest = asRows(objective.model().rest);
  if (rest.rows() > 0) round_off_step_ = 1e-14 * (rest.colwise().maxCoeff() - rest.colwise().minCoeff()).norm();
}

FrameSolver::FrameSolver(Objective& objective, std::unique_ptr<DirectionSolver> solver, const SolverSettings& settings)
    : FrameSolver(objective, *solver, settings) {
  owned_ = std::move(solver);
}

// Backtracking from alpha = 1, multiplying by beta until the Armijo condition
// g(x + alpha d) <= g(x) + gamma alpha <grad g, d> holds (Alg. 1 lines 5-10). A round-off allowance of
// 1e-14 |g| keeps the test from rejecting every step once g stops changing in double precision.
// After max_backtracks halvings the best decreasing trial is taken, or no step at all. With
// line_search=interpolate the next trial comes from a cubic fit instead of a fixed factor.
// Trials defer their gradients (Objective::evaluateDeferringGradient) after a frame in which more than
// a fifth of them were rejected: a rejected trial then costs about a fifth less and an accepted one
// about a twentieth more (measured on sphere_spline_a). The results are the same bits either way.
FrameSolver::Trial FrameSolver::lineSearch(const VecX& x, double g, double slope, const VecX& d) {
  if (settings_.line_search == LineSearchKind::Wolfe) return wolfeSearch(x, g, slope, d);
  const bool armijo = backtracks();
  double alpha = 1.0, best_alpha = 0.0, best_g = g;
  LinePoint previous;  // the rejected trial before the last, for the cubic fit
  for (int trial = 1;; ++trial) {
    trialPoint(x, alpha, d, trial_x_);
    trial_g_ = defer_gradient_ ? objective_.evaluateDeferringGradient(trial_x_, &trial_parts_)
                               : objective_.evaluate(trial_x_, &trial_gradient_, &trial_parts_);
    if (!armijo || trial_g_ <= g + settings_.armijo_gamma * alpha * slope + 1e-14 * std::abs(g)) {
      if (defer_gradient_) objective_.completeGradient(trial_x_, trial_gradient_);
      return {alpha, trial};
    }
    ++frame_rejections_;
    if (trial_g_ < best_g) best_alpha = alpha, best_g = trial_g_;
    if (trial > settings_.max_backtracks) {
      if (best_alpha == 0.0) {  // nothing decreased g: stay at x
        trial_x_ = x;
        trial_g_ = objective_.evaluate(trial_x_, &trial_gradient_, &trial_parts_);
        return {0.0, trial};
      }
      trialPoint(x, best_alpha, d, trial_x_);
      trial_g_ = objective_.evaluate(trial_x_, &trial_gradient_, &trial_parts_);
      return {best_alpha, trial + 1};
    }
    if (settings_.line_search == LineSearchKind::Interpolate) {
      const LinePoint rejected{alpha, trial_g_, 0.0};
      alpha = interpolatedBacktrack({0.0, g, slope}, rejected, trial > 1 ? &previous : nullptr);
      previous = rejected;
    } else {
      alpha *= settings_.armijo_beta;
    }
  }
}

// The strong Wolfe search; the trial it ends on becomes the step (re-evaluated if it was not the last).
FrameSolver::Trial FrameSolver::wolfeSearch(const VecX& x, double g, double slope, const VecX& d) {
  double evaluated = -1.0;
  const LineFunction phi = [&](double alpha) {
    if (alpha > step_limit_) return LinePoint{alpha, INFINITY, INFINITY};  // past the collision bound: not evaluated
    trialPoint(x, alpha, d, trial_x_);
    trial_g_ = objective_.evaluate(trial_x_, &trial_gradient_, &trial_parts_);
    evaluated = alpha;
    return LinePoint{alpha, trial_g_, trial_gradient_.dot(d)};
  };
  const double c1 = settings_.armijo_gamma, c2 = std::min(std::max(settings_.wolfe_gamma2, c1 + 1e-3), 0.9999);  // 0 < c1 < c2 < 1
  const LineSearchResult r = strongWolfe(phi, {0.0, g, slope}, c1, c2, settings_.max_backtracks + 1);
  int trials = r.trials;
  if (r.point.alpha != evaluated) {  // alpha = 0 when nothing decreased g: stay at x
    phi(r.point.alpha);
    ++trials;
  }
  return {r.point.alpha, trials};
}

void FrameSolver::solve(VecX& x, FrameSolveResult& result) {
  solver_.prepare(x);
  Timer frame_timer, phase;
  result.times = {};
  result.ls_trials = 0;
  result.ccd_step = 1.0;
  result.iterations.clear();
  frame_rejections_ = 0;
  solver_.reset();
  if (refresh_) refresh_(x);
  result.times.contacts += phase.ms();
  phase.restart();
  double g = objective_.evaluate(x, &gradient_, &parts_);
  result.times.gradient += phase.ms();
  const double initial_norm = gradient_.norm();
  result.iterations.push_back({0, g, initial_norm, 0.0, 0, frame_timer.ms(), false});

  for (int k = 1; k <= settings_.iterations; ++k) {
    phase.restart();
    if (refresh_ && refresh_(x)) {  // the contact set changed: compare like with like
      g = objective_.evaluate(x, &gradient_, &parts_);
      solver_.reset();
    }
    result.times.contacts += phase.ms();
    if (settings_.gradient_tolerance > 0 && gradient_.norm() <= settings_.gradient_tolerance * initial_norm) break;

    solver_.direction(x, gradient_, direction_, result.times);
    auto [slope, largest_move] = slopeAndLargestMove(gradient_, direction_, partial_);
    bool fallback = false;
    if (!(slope < 0)) {  // not a descent direction (or NaN): use the plain direction
      solver_.reset();
      solver_.direction(x, gradient_, direction_, result.times);
      std::tie(slope, largest_move) = slopeAndLargestMove(gradient_, direction_, partial_);
      fallback = true;
      if (!(slope < 0)) break;  // x is stationary
    }
    // A step that moves no vertex by more than 1e-14 of the model's size is round-off: x already
    // solves the frame (a body at rest, or in free fall where y is the answer).
    if (largest_move <= round_off_step_) break;
    const double cut_below = solver_.seesBarrierCurvature() ? 0.5 : 0.0;
    if (filter_ && filter_(x, direction_, cut_below, filtered_)) {  // a filtered direction must still descend
      const double filtered_slope = gradient_.dot(filtered_);
      if (filtered_slope < 0) std::swap(direction_, filtered_), slope = filtered_slope;
    }

    phase.restart();
    // The collision bound: d shortened to the first time of impact, so every trial lies before it.
    double scale = 1.0;
    if (bound_) {
      const double reach = settings_.line_search == LineSearchKind::Wolfe ? 64.0 : 1.0;
      double limit = bound_(x, direction_, reach);
      if (limit == 0 && rescue_) {  // stopped at x itself: a direction the bound lets through, if one descends
        filtered_ = direction_;
        const double rescued_slope = rescue_(x, filtered_) ? gradient_.dot(filtered_) : 0.0;
        const double rescued_limit = rescued_slope < 0 ? bound_(x, filtered_, reach) : 0.0;
        if (rescued_limit > 0) std::swap(direction_, filtered_), slope = rescued_slope, limit = rescued_limit;
      }
      result.ccd_step = std::min(result.ccd_step, limit);
      if (!(limit > 0)) break;  // touching already: no step is safe
      if (limit < 1.0) scale = limit, direction_ *= limit, slope *= limit;
      step_limit_ = limit / scale;
    }
    const Trial step = lineSearch(x, g, slope, direction_);
    const bool progress = trial_g_ < g;
    result.times.line_search += phase.ms();
    result.ls_trials += step.trials;

    solver_.update(x, trial_x_, gradient_, trial_gradient_);
    std::swap(x, trial_x_);
    std::swap(gradient_, trial_gradient_);
    std::swap(parts_, trial_parts_);
    g = trial_g_;
    result.iterations.push_back({k, g, gradient_.norm(), step.alpha * scale, step.trials, frame_timer.ms(), fallback});
    // No step decreases g sufficiently, even after every halving: converged to round-off (a body at
    // rest or in free fall, where y already solves the frame), so further iterations would only burn
    // line-search trials. Without a line search every full step is taken, increases included (that
    // is what the paper's experiment without line search does).
    const bool exhausted = step.trials > settings_.max_backtracks;
    if ((!progress || exhausted) && backtracks()) break;
    if (!progress && settings_.line_search == LineSearchKind::Wolfe) break;
    if (settings_.time_limit_ms > 0 && frame_timer.ms() >= settings_.time_limit_ms) break;
  }
  result.g = g;
  result.parts = parts_;
  defer_gradient_ = 5 * frame_rejections_ > result.ls_trials;
}

}  // namespace qnsim
