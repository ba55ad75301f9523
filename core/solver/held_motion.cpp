#include "core/solver/held_motion.h"

namespace qnsim {

HeldMotion heldMotion(SystemMatrix& A, const std::vector<HeldDirection>& held, Eigen::Index n, int max_solves, double tolerance) {
  const Eigen::Index m = static_cast<Eigen::Index>(held.size());
  HeldMotion out;
  out.p = VecX::Zero(3 * n);
  VecX r(m), diagonal(m);
  for (Eigen::Index j = 0; j < m; ++j) r[j] = held[j].value, diagonal[j] = A.matrix().coeff(held[j].vertex, held[j].vertex);
  const double scale = m > 0 ? r.cwiseAbs().maxCoeff() : 0.0;
  if (!(scale > 0)) return out;
  VecX z = diagonal.cwiseProduct(r), d = z, Sd(m), q(3 * n);
  double rz = r.dot(z);
  while (out.solves < max_solves) {
    q.setZero();
    for (Eigen::Index j = 0; j < m; ++j) vertex(q, held[j].vertex) += d[j] * held[j].direction;
    A.solve(q);  // A^-1 C^T d
    ++out.solves;
    for (Eigen::Index j = 0; j < m; ++j) Sd[j] = held[j].direction.dot(vertex(q, held[j].vertex));
    const double curvature = d.dot(Sd);
    if (!(curvature > 0)) break;
    const double alpha = rz / curvature;
    out.p += alpha * q;
    r -= alpha * Sd;
    out.residual = r.cwiseAbs().maxCoeff() / scale;
    if (out.residual <= tolerance) break;
    z = diagonal.cwiseProduct(r);
    const double rz_next = r.dot(z);
    d = z + (rz_next / rz) * d;
    rz = rz_next;
  }
  for (const HeldDirection& h : held) vertex(out.p, h.vertex) += (h.value - h.direction.dot(vertex(out.p, h.vertex))) * h.direction;
  return out;
}

}  // namespace qnsim
