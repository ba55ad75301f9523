#pragma once
// ADMM for hyperelastic materials (Narain, Overby and Brown 2016, "ADMM ⊇ Projective Dynamics"), a frame
// method beside Algorithm 1. With the split z_e = F_e (each tet's deformation gradient; a spring's
// vector d_s) and the scaled duals u_e, each iteration takes
//   local:  z_e = argmin_Z Psi(Z) + k_e/2 |Z - (F_e + u_e)|^2,   u_e += F_e - z_e,
//   global: x = argmin_x Phi(x) = g(x) - c E(s x + o) + sum_e c V_e k_e/2 |F_e - z_e + u_e|^2,
// with the ADMM weights k_e the stiffness of L (Eq. 11), so that Phi's quadratic part has exactly the
// Hessian A = M/h^2 + c s^2 L: the global step is one solve with the prefactored A, x -= alpha A^-1 grad Phi,
// alpha = 1 exact for every quadratic term of g; the terms outside A (contacts) enter linearised, so alpha
// backtracks until Phi decreases (Armijo; Narain et al. make collisions hard constraints instead), from
// the step bound of collision detection under contact.model=barrier, whose barrier is then part of g. The local
// step is a small Newton solve per element on Z (materialProximal); a spring's is closed-form. A fibre's
// term sits in the local step with the material's (weight k) and in A with its own weight, so the global
// step is then not exact, and the backtracking absorbs it. Projective Dynamics is the case where the
// local step is a projection (Narain et al.). ADMM carries z and u within a frame only: each starts at
// z = F(y), u = 0.
#include <vector>

#include "core/model/coloring.h"
#include "core/solver/frame_solver.h"
#include "core/solver/system_matrix.h"

namespace qnsim {

class AdmmSolver final : public FrameMethod {
 public:
  AdmmSolver(Objective& objective, SystemMatrix& system, const SolverSettings& settings);
  void setSettings(const SolverSettings& settings) override { settings_ = settings; }
  void setContactRefresh(ContactRefresh refresh) override { refresh_ = std::move(refresh); }
  void setStepBound(StepBound bound) override { bound_ = std::move(bound); }
  bool boundsSteps() const override { return true; }
  void solve(VecX& x, FrameSolveResult& result) override;

 private:
  void start(const VecX& x);
  void localStep(const VecX& z);
  void addPenaltyGradient(const VecX& z, VecX& gradient);
  double penalty(const VecX& z);
  const VecX& argument(const VecX& x);  // z = s x + o
  double evaluatePhi(const VecX& x, double& g, EnergyParts& parts);

  Objective& objective_;
  SystemMatrix& system_;
  SolverSettings settings_;
  ContactRefresh refresh_;
  StepBound bound_;  // collision detection along the global step (contact.model=barrier)
  VertexElements incident_;
  std::vector<Mat3> z_, u_, weighted_;        // per tet: z, u, and V (k (F - z + u) - P(F)) for the gather
  std::vector<Vec3> zs_, us_, spring_force_;  // per spring
  std::vector<double> element_penalty_;
  VecX gradient_, step_, direction_, trial_, argument_;
  EnergyParts parts_;
  double alpha_ = 1.0;  // the last global step's length
  int trials_ = 0;      // and its evaluations
};

// The local step of one element's material: argmin_Z Psi(Z) + Psi_fibre(Z) + k/2 |Z - T|^2.
Mat3 materialProximal(const SolidMaterial& material, const Fiber& fiber, double k, const Mat3& T);

}  // namespace qnsim
