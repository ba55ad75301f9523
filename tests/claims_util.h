#pragma once
// Measurements shared by the claim tests (tests/test_claims_*.cpp): strains, rigid fits, inversions.
#include <Eigen/SVD>

#include "core/math/svd3.h"
#include "core/sim/simulation.h"

namespace qnsim::test {

// Largest |sigma - 1| over the principal stretches of every tet at positions x.
inline double maxStrain(const Model& model, const VecX& x) {
  double worst = 0;
  for (int e = 0; e < model.tets.size(); ++e) {
    worst = std::max(worst, (svd3(model.tets.deformationGradient(x, e)).sigma.array() - 1.0).abs().maxCoeff());
  }
  return worst;
}

// Largest | |F d| - 1 | over the tets: the stretch along the fibre direction d.
inline double maxFibreStrain(const Model& model, const VecX& x, const Vec3& d) {
  double worst = 0;
  for (int e = 0; e < model.tets.size(); ++e) {
    worst = std::max(worst, std::abs((model.tets.deformationGradient(x, e) * d).norm() - 1.0));
  }
  return worst;
}

// x minus its best rigid fit R X + t to the rest positions X (mass-weighted Procrustes), per vertex.
inline VecX nonRigidPart(const Model& model, const VecX& x) {
  const auto X = asRows(model.rest), P = asRows(x);
  const double total = model.mass.sum();
  const Vec3 cx = (X.transpose() * model.mass) / total, cp = (P.transpose() * model.mass) / total;
  Mat3 H = Mat3::Zero();
  for (int v = 0; v < model.vertexCount(); ++v) H += model.mass[v] * (P.row(v).transpose() - cp) * (X.row(v).transpose() - cx).transpose();
  const Eigen::JacobiSVD<Mat3> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 D = Mat3::Identity();
  D(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0 ? -1.0 : 1.0;
  const Mat3 R = svd.matrixU() * D * svd.matrixV().transpose();
  VecX u(x.size());
  for (int v = 0; v < model.vertexCount(); ++v) vertex(u, v) = P.row(v).transpose() - (cp + R * (X.row(v).transpose() - cx));
  return u;
}

// Mass-weighted RMS of a per-vertex field.
inline double rms(const Model& model, const VecX& u) {
  double sum = 0;
  for (int v = 0; v < model.vertexCount(); ++v) sum += model.mass[v] * vertex(u, v).squaredNorm();
  return std::sqrt(sum / model.mass.sum());
}

}  // namespace qnsim::test
