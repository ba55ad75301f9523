#pragma once
// Vertex Block Descent (Chen, Macklin et al. 2024) and Jacobi-preconditioned descent with Chebyshev
// acceleration (Wang and Yang 2016): two frame methods beside Algorithm 1 that need no factorisation,
// both stepping each vertex by its 3 x 3 Newton step dx_v = -H_v^-1 dg/dx_v on g seen from that vertex
// (vertex_blocks.h), the element blocks' eigenvalues clamped.
//
// vbd: block Gauss-Seidel. Each sweep visits the vertex colours (coloring.h: a colour's vertices share no
// element) in order, each colour's steps computed in parallel from the positions as they are and then
// applied together, so a sweep is the same bits on any thread count (vertices coupled through a
// self-contact in one colour step Jacobi-wise). With solver.vbd_rho > 0 the sweeps are accelerated as in
// the paper: x_k := omega_k (x_k - x_{k-2}) + x_{k-2} from k = 2 on (chebyshevWeight, delay 2). VBD takes
// no line search: each vertex's step is the minimiser of g_v's quadratic model.
//
// jacobi: every vertex's step from the same x (block Jacobi, the preconditioner P = blockdiag H_v, where
// Wang and Yang take diag H), Chebyshev-accelerated from iteration chebyshev_delay on with
// solver.jacobi_rho, scaled by a step length alpha = solver.jacobi_step at each frame's start (all vertices
// move at once, so full steps can overshoot). As Wang and Yang, it checks g every 8 iterations (and at
// the last): when g has risen since the last check, it returns to that iterate, halves alpha and restarts
// the acceleration. No dot products, no factorisation.
#include <vector>

#include "core/objective/vertex_blocks.h"
#include "core/solver/frame_solver.h"

namespace qnsim {

class VertexSolver final : public FrameMethod {
 public:
  VertexSolver(Objective& objective, const SolverSettings& settings);
  void setSettings(const SolverSettings& settings) override { settings_ = settings; }
  void setContactRefresh(ContactRefresh refresh) override { refresh_ = std::move(refresh); }
  void setMoveLimit(MoveLimit limit) override { limit_ = std::move(limit); }
  void solve(VecX& x, FrameSolveResult& result) override;

  // One Gauss-Seidel sweep over the colours (vbd), or one block-Jacobi step scaled by alpha into `step`.
  void sweep(VecX& x);
  void jacobiStep(const VecX& x, double alpha, VecX& step);
  const std::vector<std::vector<int>>& colors() const { return colors_; }

 private:
  void solveVbd(VecX& x, FrameSolveResult& result);
  void solveJacobi(VecX& x, FrameSolveResult& result);
  void refresh(VecX& x);
  Vec3 newtonStep(const VecX& x, int v) const;

  Objective& objective_;
  SolverSettings settings_;
  ContactRefresh refresh_;
  MoveLimit limit_;  // on every iteration's update
  VertexBlocks blocks_;
  std::vector<std::vector<int>> colors_;
  VecX step_, before_, before_last_, checked_, gradient_, checked_gradient_, previous_;  // scratch
  EnergyParts parts_, checked_parts_;
};

}  // namespace qnsim
