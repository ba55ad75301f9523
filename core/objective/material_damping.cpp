// The objective's stiffness-proportional damping term (objective.h, MaterialDamping): the element frames,
// the value and gradient, and the Hessian of a tet's term. Only models with the term switched on pay for
// its storage.
#include <algorithm>

#include "core/common/parallel.h"
#include "core/math/svd3.h"
#include "core/objective/objective.h"

namespace qnsim {
namespace {

Mat3 symmetric(const Mat3& M) { return 0.5 * (M + M.transpose()); }

// A rotation vector's rotation.
Mat3 turn(const Vec3& angle) {
  const double size = angle.norm();
  return size > 0 ? Mat3(Eigen::AngleAxisd(size, angle / size)) : Mat3::Identity();
}

// The turning rate w (in the rest frame) of the polar rotation of F = R U under dF/dt: the skew part of
// R^T dF/dt is [w]x U + U [w]x over 2 = [(tr U - U) w]x / 2. Exact for a rigid turn of a strained tet; where
// tr U - U is near singular (an inverted tet) the rate of an unstrained one.
Vec3 turningRate(const Svd3& svd, const Mat3& rate) {
  const Mat3 spin = (svd.U * svd.V.transpose()).transpose() * rate;
  const Vec3 axial = 0.5 * Vec3(spin(2, 1) - spin(1, 2), spin(0, 2) - spin(2, 0), spin(1, 0) - spin(0, 1));
  const Vec3& s = svd.sigma;
  const Vec3 pairs(s[1] + s[2], s[0] + s[2], s[0] + s[1]);  // the eigenvalues of tr U - U
  if (pairs.minCoeff() <= 1e-3 * pairs.maxCoeff()) return axial;
  return 2.0 * svd.V * (svd.V.transpose() * axial).cwiseQuotient(pairs);
}

}  // namespace

void Objective::setDampingFrames(const VecX& x, const VecX& v, double time) {
  const TetElements& tets = model_.tets;
  const SpringElements& springs = model_.springs;
  damping.frames.resize(tets.size());
  damping.origins.resize(tets.size());
  damping.directions.resize(springs.size());
  damping.lengths.resize(springs.size());
  damping_energy_.resize(tets.size() + springs.size());
  damping_force_.resize(4 * tets.size() + springs.size());
  parallelFor(tets.size(), 256, [&](int begin, int end) {
    for (int e = begin; e < end; ++e) {
      const Svd3 svd = svd3(tets.deformationGradient(x, e));
      const Mat3 R = svd.U * svd.V.transpose();
      damping.frames[e] = R * turn(time * turningRate(svd, tets.deformationGradient(v, e)));
      damping.origins[e] = symmetric(R.transpose() * tets.deformationGradient(damping.anchor, e));
    }
  });
  parallelFor(springs.size(), 1024, [&](int begin, int end) {
    for (int s = begin; s < end; ++s) {
      const int i = springs.vertices[s][0], j = springs.vertices[s][1];
      const Vec3 d = vertex(x, i) - vertex(x, j);
      const double length = d.norm();
      const Vec3 u = length > 0 ? Vec3(d / length) : Vec3::Zero();
      damping.lengths[s] = u.dot(vertex(damping.anchor, i) - vertex(damping.anchor, j));
      const Vec3 rate = length > 0 ? Vec3(d.cross(vertex(v, i) - vertex(v, j)) / (length * length)) : Vec3::Zero();
      damping.directions[s] = turn(time * rate) * u;
    }
  });
}

// Tet e's damping stress P = w V R (k S + kappa (d^T S d) d d^T), whose forces are P g_a as the elastic
// ones', and its energy w V (k |S|^2 + kappa (d^T S d)^2) / 2.
Mat3 Objective::dampingStress(const VecX& x, int e, double& energy) const {
  const TetElements& tets = model_.tets;
  const Region& region = model_.regions[tets.region[e]];
  const Mat3& R = damping.frames[e];
  const Mat3 S = symmetric(R.transpose() * tets.deformationGradient(x, e)) - damping.origins[e];
  const double V = tets.volume[e], w = damping.weight, stretch = region.fiber.direction.dot(S * region.fiber.direction);
  energy = 0.5 * w * V * (region.stiffness * S.squaredNorm() + region.fiber.kappa * stretch * stretch);
  return w * V * R * (region.stiffness * S + region.fiber.kappa * stretch * region.fiber.direction * region.fiber.direction.transpose());
}

// The derivatives of S along each coordinate i of the tet's vertex a: B = sym(R^T e_i g_a^T), and the
// fibre's stretch along it.
void Objective::dampingDirections(int e, int a, Mat3* B, double* stretch) const {
  const TetElements& tets = model_.tets;
  const Vec3& d = model_.regions[tets.region[e]].fiber.direction;
  const Vec3 g = a == 0 ? Vec3(-tets.rest_inverse[e].colwise().sum().transpose()) : Vec3(tets.rest_inverse[e].row(a - 1).transpose());
  for (int i = 0; i < 3; ++i) {
    B[i] = symmetric(damping.frames[e].row(i).transpose() * g.transpose());
    stretch[i] = d.dot(B[i] * d);
  }
}

TetVertexTerms Objective::dampingTetVertexTerms(const VecX& x, int e, int a) const {
  TetVertexTerms out;
  const Mat3 P = dampingStress(x, e, out.energy);
  const Vec3 g = a == 0 ? Vec3(-model_.tets.rest_inverse[e].colwise().sum().transpose())
                        : Vec3(model_.tets.rest_inverse[e].row(a - 1).transpose());
  out.gradient = P * g;
  Mat3 B[3];
  double stretch[3];
  dampingDirections(e, a, B, stretch);
  const Region& region = model_.regions[model_.tets.region[e]];
  const double scale = damping.weight * model_.tets.volume[e];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      out.hessian(r, c) = scale * (region.stiffness * B[r].cwiseProduct(B[c]).sum() + region.fiber.kappa * stretch[r] * stretch[c]);
  return out;
}

TetVertexTerms Objective::dampingSpringTerms(const VecX& x, int s, int end) const {
  const SpringElements& springs = model_.springs;
  const Vec3& u = damping.directions[s];
  const double k = model_.regions[springs.region[s]].stiffness, w = damping.weight;
  const double stretch = u.dot(vertex(x, springs.vertices[s][0]) - vertex(x, springs.vertices[s][1])) - damping.lengths[s];
  return {0.5 * w * k * stretch * stretch, (end == 0 ? 1.0 : -1.0) * w * k * stretch * u, w * k * u * u.transpose()};
}

// Per element, as evaluateTets and evaluateSprings: the energy and the slots' forces, gathered in evaluate.
void Objective::evaluateDamping(const VecX& x, bool with_gradient) {
  const TetElements& tets = model_.tets;
  const double w = damping.weight;
  parallelFor(tets.size(), 256, [&](int begin, int end) {
    for (int e = begin; e < end; ++e) {
      if (tets.removed[e]) {  // adds nothing (removal.h)
        damping_energy_[e] = 0.0;
        std::fill_n(damping_force_.begin() + 4 * e, 4, Vec3::Zero());
        continue;
      }
      const Mat3 P = dampingStress(x, e, damping_energy_[e]);
      if (!with_gradient) continue;
      const Mat3 H = P * tets.rest_inverse[e].transpose();  // dE/dx_a = P g_a, as the elastic forces
      damping_force_[4 * e + 1] = H.col(0);
      damping_force_[4 * e + 2] = H.col(1);
      damping_force_[4 * e + 3] = H.col(2);
      damping_force_[4 * e] = -(H.col(0) + H.col(1) + H.col(2));
    }
  });
  const SpringElements& springs = model_.springs;
  const int offset = tets.size(), force_offset = 4 * tets.size();
  parallelFor(springs.size(), 1024, [&](int begin, int end) {
    for (int s = begin; s < end; ++s) {
      const int i = springs.vertices[s][0], j = springs.vertices[s][1];
      const Vec3& u = damping.directions[s];
      const double k = springs.removed[s] ? 0.0 : model_.regions[springs.region[s]].stiffness;
      const double stretch = u.dot(vertex(x, i) - vertex(x, j)) - damping.lengths[s];
      damping_energy_[offset + s] = 0.5 * w * k * stretch * stretch;
      damping_force_[force_offset + s] = w * k * stretch * u;
    }
  });
}

// weight V (k <dS, dS> + kappa (d^T dS d)^2) for dS = sym(R^T sum_a dx_a g_a^T): one 3x3 per coordinate
// of each vertex, their inner products.
Eigen::Matrix<double, 12, 12> Objective::dampingTetHessian(int e) const {
  const TetElements& tets = model_.tets;
  const Region& region = model_.regions[tets.region[e]];
  Mat3 B[12];
  double stretch[12];
  for (int a = 0; a < 4; ++a) dampingDirections(e, a, &B[3 * a], &stretch[3 * a]);
  const double scale = damping.weight * tets.volume[e];
  Eigen::Matrix<double, 12, 12> H;
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c <= r; ++c)
      H(r, c) = H(c, r) = scale * (region.stiffness * B[r].cwiseProduct(B[c]).sum() + region.fiber.kappa * stretch[r] * stretch[c]);
  return H;
}

}  // namespace qnsim
