#pragma once
// The motion of a body held at some of its vertices along given directions: the displacement p with
// n_j . p_{v_j} = u_j for every held direction (vertex v_j, unit n_j, value u_j) that makes
// 1/2 p^T A p smallest, A = M/h^2 + L the matrix of ours and Projective Dynamics (system_matrix.h).
// It is the body's one-step response to being carried there, inertia and elasticity as A weighs them:
// a collider pushing the vertices it meets (held along x, y and z) moves the rest of the body with them,
// and vertices against a collider that stands still (held along its normal) slide along it
// (contact.push, docs/contact.md).
// p = A^-1 C^T lambda, C the held directions' rows, where (C A^-1 C^T) lambda = u: conjugate gradients
// on that system, preconditioned by A's diagonal (lambda_j ~ A_vv u_j, exact for a vertex that holds
// nothing else), each iteration one solve with A's factor.
#include <vector>

#include "core/solver/system_matrix.h"

namespace qnsim {

struct HeldDirection {
  int vertex;
  Vec3 direction;  // unit; a vertex's directions orthonormal
  double value;    // its displacement along `direction` (m)
};

struct HeldMotion {
  VecX p;               // 3n
  int solves = 0;       // solves with A
  double residual = 0;  // largest |n_j . p - u_j| before p was set to hold them exactly, relative to max |u_j|
};

// Stops when the residual falls below `tolerance`, or after max_solves solves; then moves each held
// vertex's p along its directions onto their values. n: the vertex count.
HeldMotion heldMotion(SystemMatrix& A, const std::vector<HeldDirection>& held, Eigen::Index n, int max_solves, double tolerance);

}  // namespace qnsim
