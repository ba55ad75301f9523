#include "core/model/rigid_fit.h"

#include <Eigen/SVD>
#include <cmath>

namespace qnsim {

VecX nonRigidPart(const Model& model, const VecX& x) {
  const auto X = asRows(model.rest), P = asRows(x);
  const double total = model.mass.sum();
  const Vec3 cx = (X.transpose() * model.mass) / total, cp = (P.transpose() * model.mass) / total;
  Mat3 H = Mat3::Zero();
  for (int v = 0; v < model.vertexCount(); ++v) H += model.mass[v] * (P.row(v).transpose() - cp) * (X.row(v).transpose() - cx).transpose();
  const Eigen::JacobiSVD<Mat3> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 D = Mat3::Identity();
  D(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0 ? -1.0 : 1.0;  // a rotation, never a reflection
  const Mat3 R = svd.matrixU() * D * svd.matrixV().transpose();
  VecX u(x.size());
  for (int v = 0; v < model.vertexCount(); ++v) vertex(u, v) = P.row(v).transpose() - (cp + R * (X.row(v).transpose() - cx));
  return u;
}

double massWeightedRms(const Model& model, const VecX& u) {
  double sum = 0;
  for (int v = 0; v < model.vertexCount(); ++v) sum += model.mass[v] * vertex(u, v).squaredNorm();
  return std::sqrt(sum / model.mass.sum());
}

}  // namespace qnsim
