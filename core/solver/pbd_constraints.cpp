#include "core/solver/pbd_constraints.h"

#include <algorithm>
#include <cmath>

namespace qnsim {

void projectConstraint(PbdPositions& p, const int* vertices, const Vec3* gradient, int count, double C, const ConstraintWeight& weight,
                       double& lambda, double low, double high) {
  double w = 0;  // s^2 sum_a |dC/dz_a|^2 / m_a, the constraint's inverse effective mass
  for (int a = 0; a < count; ++a) w += p.inverse_mass[vertices[a]] * gradient[a].squaredNorm();
  w *= p.argument.scale * p.argument.scale;
  if (!(w > 0)) return;  // no gradient (or a non-finite one): nothing to move
  // XPBD's step (stiffness 1) and PBD's (compliance 0) are one formula.
  double step = -(weight.stiffness * C + weight.compliance * lambda) / (w + weight.compliance);
  if (const double bounded = std::clamp(lambda + step, low, high); bounded != lambda + step) step = bounded - lambda;
  lambda += step;
  for (int a = 0; a < count; ++a) vertex(p.x, vertices[a]) += (p.argument.scale * p.inverse_mass[vertices[a]] * step) * gradient[a];
}

double corotationalConstraint(const Mat3& F, const Mat3& R, Mat3& dC_dF) {
  const Mat3 D = F - R;
  const double C = D.norm();
  dC_dF = C > 0 ? Mat3(D / C) : Mat3::Zero();
  return C;
}

double volumeConstraint(const Mat3& F, Mat3& dC_dF) {
  dC_dF.col(0) = F.col(1).cross(F.col(2));
  dC_dF.col(1) = F.col(2).cross(F.col(0));
  dC_dF.col(2) = F.col(0).cross(F.col(1));
  return F.determinant() - 1.0;
}

Mat3 deformationGradient(const VecX& x, const EnergyArgument& z, const TetElements& tets, int e) {
  const Eigen::Vector4i& t = tets.vertices[e];
  const Vec3 z0 = z.at(x, t[0]);
  Mat3 Ds;
  Ds << z.at(x, t[1]) - z0, z.at(x, t[2]) - z0, z.at(x, t[3]) - z0;
  return Ds * tets.rest_inverse[e];
}

void tetGradient(const Mat3& dC_dF, const Mat3& rest_inverse, Vec3 (&gradient)[4]) {
  const Mat3 H = dC_dF * rest_inverse.transpose();
  gradient[1] = H.col(0);
  gradient[2] = H.col(1);
  gradient[3] = H.col(2);
  gradient[0] = -(H.col(0) + H.col(1) + H.col(2));
}

void projectCorotational(PbdPositions& p, const TetElements& tets, int e, const Mat3& R, const ConstraintWeight& weight, double& lambda) {
  if (!weight.active()) return;
  Mat3 dC_dF;
  Vec3 gradient[4];
  const double C = corotationalConstraint(deformationGradient(p.x, p.argument, tets, e), R, dC_dF);
  tetGradient(dC_dF, tets.rest_inverse[e], gradient);
  projectConstraint(p, tets.vertices[e].data(), gradient, 4, C, weight, lambda);
}

void projectVolume(PbdPositions& p, const TetElements& tets, int e, const ConstraintWeight& weight, double& lambda) {
  if (!weight.active()) return;
  Mat3 dC_dF;
  Vec3 gradient[4];
  const double C = volumeConstraint(deformationGradient(p.x, p.argument, tets, e), dC_dF);
  tetGradient(dC_dF, tets.rest_inverse[e], gradient);
  projectConstraint(p, tets.vertices[e].data(), gradient, 4, C, weight, lambda);
}

void projectDistance(PbdPositions& p, const Eigen::Vector2i& vertices, double rest_length, const ConstraintWeight& weight, double& lambda) {
  if (!weight.active()) return;
  const Vec3 d = p.z(vertices[0]) - p.z(vertices[1]);
  const double length = d.norm();
  if (!(length > 0)) return;
  const Vec3 gradient[2] = {d / length, -d / length};
  projectConstraint(p, vertices.data(), gradient, 2, length - rest_length, weight, lambda);
}

void projectVertexSpring(PbdPositions& p, int v, const Mat3& stiffness, const Vec3& target, Vec3& lambda) {
  const double s = p.argument.scale, w = p.inverse_mass[v];
  const Mat3 system = Mat3::Identity() + (s * s * w) * stiffness;
  const Vec3 step = system.ldlt().solve(-(lambda + stiffness * (p.z(v) - target)));
  lambda += step;
  vertex(p.x, v) += (s * w) * step;
}

}  // namespace qnsim
