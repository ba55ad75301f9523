#include "core/solver/admm_solver.h"

#include <algorithm>
#include <cmath>

#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/material/fiber.h"
#include "core/material/valanis_landel.h"
#include "core/solver/frame_trace.h"

namespace qnsim {

// Newton's method on phi(Z) = Psi(Z) + k/2 |Z - T|^2 from Z = T. Its Hessian dP/dF + k I is applied
// through the eigensystem of dP/dF (valanis_landel.h: nine orthonormal modes Q_j), negative eigenvalues
// clamped, so the step -sum_j <Q_j, grad phi> / (lambda_j+ + k) Q_j needs no solve; a fibre's curvature
// is left out of it (its energy and stress are in phi). Each step is backtracked until phi decreases; at
// most 50 steps, until |grad phi| <= 1e-12 k (1 + |T|).
// Working on Z itself, not on its singular values, keeps the energy that of the material's own
// inversion-aware SVD (at most one negative singular value), which a minimisation over three free
// singular values can leave.
Mat3 materialProximal(const SolidMaterial& material, const Fiber& fiber, double k, const Mat3& T) {
  const auto phi = [&](const Mat3& Z, Mat3* gradient) {
    double value = material.energyAndStress(Z, gradient) + addFiberEnergyAndStress(fiber, Z, gradient) + 0.5 * k * (Z - T).squaredNorm();
    if (gradient) *gradient += k * (Z - T);
    return value;
  };
  Mat3 Z = T, gradient;
  double value = phi(Z, &gradient);
  for (int iteration = 0; iteration < 50; ++iteration) {
    if (gradient.norm() <= 1e-12 * k * (1.0 + T.norm())) break;
    const StressDerivative modes = stressDerivative(material, svd3(Z));
    Mat3 step = Mat3::Zero();
    for (int j = 0; j < 9; ++j) step -= (modes.Q[j].cwiseProduct(gradient).sum() / (std::max(modes.lambda[j], 0.0) + k)) * modes.Q[j];
    // Decrease, up to the round-off of phi near the minimum (where Newton's decrease |grad|^2 / k is
    // below phi's last digits and the gradient still shrinks).
    const auto decreases = [&](double next) { return next <= value + 1e-14 * std::abs(value); };
    double alpha = 1.0, next = phi(Z + step, nullptr);
    while (!decreases(next) && alpha > 1e-10) alpha *= 0.5, next = phi(Z + alpha * step, nullptr);
    if (!decreases(next)) break;
    Z += alpha * step;
    value = phi(Z, &gradient);
  }
  return Z;
}

AdmmSolver::AdmmSolver(Objective& objective, SystemMatrix& system, const SolverSettings& settings)
    : objective_(objective), system_(system), settings_(settings), incident_(objective.model()) {}

// z = F(x) (d for springs), u = 0.
void AdmmSolver::start(const VecX& z) {
  const Model& model = objective_.model();
  z_.resize(model.tets.size());
  u_.assign(model.tets.size(), Mat3::Zero());
  weighted_.resize(model.tets.size());
  for (int e = 0; e < model.tets.size(); ++e) z_[e] = model.tets.deformationGradient(z, e);
  zs_.resize(model.springs.size());
  us_.assign(model.springs.size(), Vec3::Zero());
  spring_force_.resize(model.springs.size());
  for (int i = 0; i < model.springs.size(); ++i) zs_[i] = vertex(z, model.springs.vertices[i][0]) - vertex(z, model.springs.vertices[i][1]);
}

void AdmmSolver::localStep(const VecX& z) {
  const Model& model = objective_.model();
  parallelFor(model.tets.size(), 64, [&](int begin, int end) {
    for (int e = begin; e < end; ++e) {
      if (model.tets.removed[e]) continue;
      const Mat3 T = model.tets.deformationGradient(z, e) + u_[e];
      const int region = model.tets.region[e];
      z_[e] = materialProximal(model.solid(region), model.regions[region].fiber, model.regions[region].stiffness, T);
      u_[e] = T - z_[e];
    }
  });
  // A spring's k/2 (|z| - l0)^2 + k/2 |z - t|^2 is least at z along t with |z| = (l0 + |t|) / 2.
  for (int i = 0; i < model.springs.size(); ++i) {
    if (model.springs.removed[i]) continue;
    const Vec3 t = vertex(z, model.springs.vertices[i][0]) - vertex(z, model.springs.vertices[i][1]) + us_[i];
    const double length = t.norm();
    zs_[i] = length > 0 ? Vec3(0.5 * (model.springs.rest_length[i] + length) / length * t) : t;
    us_[i] = t - zs_[i];
  }
}

// grad Phi - grad g = c s sum_e V G_e^T (k (F - z + u) - P(F)) (and the springs' alike), the stresses P
// kept by the objective's last evaluation at the same x; gathered per vertex in a fixed order.
void AdmmSolver::addPenaltyGradient(const VecX& z, VecX& gradient) {
  const Model& model = objective_.model();
  const std::vector<Mat3>& stress = objective_.tetStresses();
  parallelFor(model.tets.size(), 256, [&](int begin, int end) {
    for (int e = begin; e < end; ++e) {
      if (model.tets.removed[e]) {
        weighted_[e].setZero();
        continue;
      }
      const double k = model.regions[model.tets.region[e]].stiffness;
      const Mat3 F = model.tets.deformationGradient(z, e);
      weighted_[e] = model.tets.volume[e] * (k * (F - z_[e] + u_[e]) - stress[e]) * model.tets.rest_inverse[e].transpose();
    }
  });
  for (int i = 0; i < model.springs.size(); ++i) {
    spring_force_[i].setZero();
    if (model.springs.removed[i]) continue;
    const double k = model.regions[model.springs.region[i]].stiffness;
    const Vec3 d = vertex(z, model.springs.vertices[i][0]) - vertex(z, model.springs.vertices[i][1]);
    const double length = d.norm();
    const Vec3 elastic = length > 0 ? Vec3(k * (length - model.springs.rest_length[i]) / length * d) : Vec3::Zero();
    spring_force_[i] = k * (d - zs_[i] + us_[i]) - elastic;
  }
  const double cs = objective_.energyScale() * objective_.argumentScale();
  parallelFor(model.vertexCount(), 256, [&](int begin, int end) {
    for (int v = begin; v < end; ++v) {
      Vec3 sum = Vec3::Zero();
      for (int i = incident_.tet_start[v]; i < incident_.tet_start[v + 1]; ++i) {
        const int e = incident_.tet_entry[i] / 4, a = incident_.tet_entry[i] % 4;
        const Mat3& W = weighted_[e];  // V S Dm^-T: its columns act on vertices 1..3, minus their sum on 0
        sum += a == 0 ? Vec3(-(W.col(0) + W.col(1) + W.col(2))) : Vec3(W.col(a - 1));
      }
      for (int i = incident_.spring_start[v]; i < incident_.spring_start[v + 1]; ++i)
        sum += (incident_.spring_entry[i] % 2 == 0 ? 1.0 : -1.0) * spring_force_[incident_.spring_entry[i] / 2];
      vertex(gradient, v) += cs * sum;
    }
  });
}

// c sum_e V k/2 |F_e - z_e + u_e|^2 (and the springs' alike) at the energy argument z.
double AdmmSolver::penalty(const VecX& z) {
  const Model& model = objective_.model();
  element_penalty_.assign(model.tets.size() + model.springs.size(), 0.0);
  parallelFor(model.tets.size(), 256, [&](int begin, int end) {
    for (int e = begin; e < end; ++e)
      if (!model.tets.removed[e])
        element_penalty_[e] = 0.5 * model.tets.volume[e] * model.regions[model.tets.region[e]].stiffness *
                              (model.tets.deformationGradient(z, e) - z_[e] + u_[e]).squaredNorm();
  });
  for (int i = 0; i < model.springs.size(); ++i)
    if (!model.springs.removed[i]) {
      const Vec3 d = vertex(z, model.springs.vertices[i][0]) - vertex(z, model.springs.vertices[i][1]);
      element_penalty_[model.tets.size() + i] =
          0.5 * model.regions[model.springs.region[i]].stiffness * (d - zs_[i] + us_[i]).squaredNorm();
    }
  return objective_.energyScale() * deterministicSum(element_penalty_.data(), static_cast<int>(element_penalty_.size()));
}

const VecX& AdmmSolver::argument(const VecX& x) {
  if (objective_.argumentScale() == 1.0) return x;
  argument_ = objective_.argumentScale() * x + objective_.energyOffset();
  return argument_;
}

// Phi = g - c E + the penalty, from an evaluation of g (which keeps the tets' stresses for the gradient).
double AdmmSolver::evaluatePhi(const VecX& x, double& g, EnergyParts& parts) {
  g = objective_.evaluateDeferringGradient(x, &parts);
  return g - parts.elastic + penalty(argument(x));
}

void AdmmSolver::solve(VecX& x, FrameSolveResult& result) {
  FrameTrace trace(objective_, result);
  if (refresh_) refresh_(x);
  start(argument(x));
  double g = objective_.evaluateDeferringGradient(x, &parts_);
  for (int k = 0;; ++k) {
    objective_.completeGradient(x, gradient_);  // the stresses of x's evaluation are still kept
    trace.evaluated(k, g, gradient_, parts_, k > 0 ? alpha_ : 1.0, k > 0 ? trials_ : 0);
    if (k == settings_.iterations || (k > 0 && trace.stop(settings_))) break;  // at least one iteration, as the others
    localStep(argument(x));
    double phi_g;
    EnergyParts phi_parts;
    const double phi = g - parts_.elastic + penalty(argument(x));
    step_ = gradient_;
    addPenaltyGradient(argument(x), step_);  // grad Phi
    Timer solve_timer;
    direction_ = step_;
    system_.solve(direction_);  // A^-1 grad Phi: the step is its negative
    result.times.linear_solve += solve_timer.ms();
    const double decrease = step_.dot(direction_);  // -<grad Phi, step> > 0
    // Backtrack x - alpha A^-1 grad Phi until Phi decreases sufficiently: alpha = 1 is exact for every
    // quadratic term, and the backtracking tames the terms A leaves out (contacts), which it linearises.
    // Under the barrier no trial goes past the first impact collision detection finds along the step.
    alpha_ = 1.0;
    if (bound_) {
      trial_ = -direction_;
      alpha_ = bound_(x, trial_, 1.0);
      result.ccd_step = std::min(result.ccd_step, alpha_);
    }
    trials_ = 0;
    bool decreased = false;
    while (!decreased && trials_ <= settings_.max_backtracks) {
      if (trials_ > 0) alpha_ *= settings_.armijo_beta;
      trial_ = x - alpha_ * direction_;
      decreased = evaluatePhi(trial_, phi_g, phi_parts) <= phi - settings_.armijo_gamma * alpha_ * decrease + 1e-14 * std::abs(phi);
      ++trials_;
    }
    if (!decreased) {  // no step lowers Phi: converged to round-off, or stuck; x stays
      result.ls_trials += trials_;
      break;
    }
    if (refresh_ && refresh_(trial_)) phi_g = objective_.evaluateDeferringGradient(trial_, &phi_parts);  // the contact set changed
    std::swap(x, trial_);
    g = phi_g;
    parts_ = phi_parts;
  }
}

}  // namespace qnsim
