#pragma once
// Position-based FEM as a frame method beside Algorithm 1: solver.method=pbd is the position-based
// finite element method (PBFE) of the dissertation docs/pbd.md cites (Sec. 5.3, Alg. 2) on tets, xpbd
// the same constraints with compliances (Macklin, Mueller and Chentanez 2016). From x = y each of
// solver.iterations Gauss-Seidel sweeps projects
//   - per tet, a co-rotational constraint |F - R| = 0, R the tet's rotation estimate (rotation_estimate.h,
//     kept across frames, refined before each projection or once per frame: solver.pbd.rotation_update),
//     then a volume constraint det F - 1 = 0;
//   - per spring, a distance constraint |x1 - x2| - l0 = 0;
//   - the terms of g outside the elastic energy, each as a compliant projection that has g's own term as
//     its energy: attachments (handles, pins), mouse drags and wind as vertex springs, and the frame's
//     contacts (refreshed once, at y, as the PBFE dissertation's Alg. 2 detects them) and friction as one-sided and bounded
//     constraints.
// The elements go in colours that share no vertex, each colour in parallel (pbd.sweep=colored, results
// independent of the thread count), or one after another (sequential). The integrator then sets v from
// x as for every method (v = (x - x_n)/h for backward Euler).
//
// xpbd's compliances come from each region's material: its energy per tet is V (mu |F - R|^2 + lambda/2
// (det F - 1)^2), fixed corotated, with the Lame fit of stiffness_fit.h, so alpha = 1/(2 mu V) and
// 1/(lambda V); a spring's is 1/k. On fixed_corotated, ARAP and springs this is g's own energy, and the
// sweeps' fixed point misses g's minimiser only by the drift of pbd_constraints.h; pbd's stiffnesses in
// [0, 1] ignore the material.
//
// Telemetry per sweep: g(x) and its gradient (solver.pbd.trace; PBD does not minimise g, the error
// against g's minimiser shows what it reaches) and the RMS of the elastic constraints' C + alpha~ lambda.
#include <vector>

#include "core/objective/objective.h"
#include "core/solver/frame_solver.h"
#include "core/solver/pbd_constraints.h"

namespace qnsim {

class PbdSolver final : public FrameMethod {
 public:
  PbdSolver(Objective& objective, const SolverSettings& settings);
  void setSettings(const SolverSettings& settings) override { settings_ = settings; }
  void setContactRefresh(ContactRefresh refresh) override { refresh_ = std::move(refresh); }
  void setMoveLimit(MoveLimit limit) override { limit_ = std::move(limit); }
  void solve(VecX& x, FrameSolveResult& result) override;
  // The rotation estimates; none: the next frame starts them afresh, from the SVD of each tet's F.
  void saveHistory(SimState& state) const override { state.rotations = rotations_; }
  void loadHistory(const SimState& state) override { rotations_ = state.rotations; }

 private:
  struct Moduli {
    double corotational = 0, volume = 0;  // 2 mu and lambda of a solid region; a spring region's k
  };
  void beginFrame(const VecX& x);
  void sweep(VecX& x);
  void projectElement(PbdPositions& p, int element);
  void projectVertexTerms(VecX& x);
  ConstraintWeight weight(double pbd_stiffness, double modulus, double measure) const;
  ConstraintWeight corotationalWeight(int tet) const;
  ConstraintWeight volumeWeight(int tet) const;
  ConstraintWeight springWeight(int spring) const;
  double residual(const VecX& x);

  Objective& objective_;
  const Model& model_;
  SolverSettings settings_;
  ContactRefresh refresh_;
  MoveLimit limit_;  // on every sweep's update
  std::vector<std::vector<int>> colors_;
  VecX inverse_mass_, gradient_, before_;  // before_: x before the sweep
  std::vector<Eigen::Quaterniond> rotations_;  // per tet, carried from frame to frame
  // Set per frame: the energy argument, each region's moduli, and every constraint's multiplier.
  EnergyArgument argument_;
  std::vector<Moduli> moduli_;
  std::vector<double> lambda_corotational_, lambda_volume_, lambda_spring_, lambda_contact_, lambda_self_contact_, lambda_friction_;
  std::vector<Vec3> lambda_attachment_, lambda_drag_, lambda_wind_;
  std::vector<double> element_residual_, element_constraints_;  // per element: sum of (C + alpha~ lambda)^2, and how many
};

}  // namespace qnsim
