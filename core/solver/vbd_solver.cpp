#include "core/solver/vbd_solver.h"

#include <algorithm>

#include <Eigen/Cholesky>

#include "core/common/parallel.h"
#include "core/common/vector_blocks.h"
#include "core/solver/chebyshev.h"
#include "core/solver/frame_trace.h"

namespace qnsim {

VertexSolver::VertexSolver(Objective& objective, const SolverSettings& settings)
    : objective_(objective), settings_(settings), blocks_(objective, EigenvalueFilter::Clamp), colors_(colorVertices(objective.model())) {}

void VertexSolver::refresh(VecX& x) {
  if (refresh_ && refresh_(x)) blocks_.index();
}

// -H_v^-1 dg/dx_v. H_v is w m_v I plus positive semidefinite blocks; a vertex of no mass and no element
// (none in a built model) would give a singular H_v, which LDL^T leaves at zero step.
Vec3 VertexSolver::newtonStep(const VecX& x, int v) const {
  const VertexBlocks::Block b = blocks_.block(x, v);
  const Eigen::LDLT<Mat3> ldlt(b.hessian);
  const Vec3 step = -ldlt.solve(b.gradient);
  return step.allFinite() ? step : Vec3::Zero();
}

void VertexSolver::sweep(VecX& x) {
  step_.resize(x.size());
  for (const std::vector<int>& color : colors_) {
    const int count = static_cast<int>(color.size());
    parallelFor(count, 64, [&](int begin, int end) {
      for (int i = begin; i < end; ++i) vertex(step_, color[i]) = newtonStep(x, color[i]);
    });
    parallelFor(count, 256, [&](int begin, int end) {
      for (int i = begin; i < end; ++i) vertex(x, color[i]) += vertex(step_, color[i]);
    });
  }
}

void VertexSolver::jacobiStep(const VecX& x, double alpha, VecX& step) {
  step.resize(x.size());
  blocks_.cacheTets(x);  // every block at this x: each tet evaluated once, not once per vertex
  parallelFor(objective_.model().vertexCount(), 64, [&](int begin, int end) {
    for (int v = begin; v < end; ++v) vertex(step, v) = alpha * newtonStep(x, v);
  });
  blocks_.dropTetCache();
}

void VertexSolver::solve(VecX& x, FrameSolveResult& result) {
  if (refresh_) refresh_(x);
  blocks_.index();
  if (settings_.method == SolverMethod::Vbd)
    solveVbd(x, result);
  else
    solveJacobi(x, result);
}

void VertexSolver::solveVbd(VecX& x, FrameSolveResult& result) {
  FrameTrace trace(objective_, result);
  trace.trace(0, x);
  double omega = 1.0;
  for (int k = 1; k <= settings_.iterations; ++k) {
    if (k > 1) refresh(x);
    if (settings_.vbd_rho > 0) before_last_.swap(before_), before_ = x;  // x_{k-2}, x_{k-1}
    if (limit_) previous_ = x;
    sweep(x);
    omega = chebyshevWeight(k, 2, settings_.vbd_rho, omega);
    if (settings_.vbd_rho > 0 && k >= 2)
      forVectorBlocks(x.size(), [&](Eigen::Index b, Eigen::Index n) {
        x.segment(b, n) = omega * (x.segment(b, n) - before_last_.segment(b, n)) + before_last_.segment(b, n);
      });
    if (limit_) result.ccd_step = std::min(result.ccd_step, limit_(previous_, x));  // the sweep and its acceleration
    trace.trace(k, x);
    if (trace.stop(settings_)) break;
  }
}

void VertexSolver::solveJacobi(VecX& x, FrameSolveResult& result) {
  FrameTrace trace(objective_, result);
  trace.trace(0, x);
  double alpha = settings_.jacobi_step, omega = 1.0, checked_g = result.g;
  checked_ = before_ = x;
  checked_gradient_ = trace.lastGradient();
  checked_parts_ = result.parts;
  int since_restart = 0;
  for (int k = 1; k <= settings_.iterations; ++k) {
    if (k > 1) refresh(x);
    jacobiStep(x, alpha, step_);
    omega = chebyshevWeight(++since_restart, settings_.chebyshev_delay, settings_.jacobi_rho, omega);
    // x_{k+1} = omega (x_k + step - x_{k-1}) + x_{k-1}; before_ holds x_{k-1}, then x_k.
    forVectorBlocks(x.size(), [&](Eigen::Index b, Eigen::Index n) {
      for (Eigen::Index i = b; i < b + n; ++i) {
        const double current = x[i];
        x[i] = omega * (current + step_[i] - before_[i]) + before_[i];
        before_[i] = current;
      }
    });
    if (limit_) result.ccd_step = std::min(result.ccd_step, limit_(before_, x));  // before_ now holds x_k
    if (k % 8 != 0 && k != settings_.iterations) {
      trace.trace(k, x);
      if (trace.stop(settings_)) break;
      continue;
    }
    // The check of Wang and Yang: part of the method's work, so timed.
    const double g = objective_.evaluate(x, &gradient_, &parts_);
    if (g > checked_g) {
      x = before_ = checked_;
      alpha *= 0.5;
      since_restart = 0;
      omega = 1.0;
    } else {
      checked_ = x;
      checked_g = g;
      checked_gradient_ = gradient_;
      checked_parts_ = parts_;
    }
    trace.evaluated(k, checked_g, checked_gradient_, checked_parts_, alpha, 1);
    if (trace.stop(settings_)) break;
  }
}

}  // namespace qnsim
