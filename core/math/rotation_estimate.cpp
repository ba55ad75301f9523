#include "core/math/rotation_estimate.h"

#include <cmath>

#include "core/math/svd3.h"

namespace qnsim {

int refineRotation(const Mat3& F, Eigen::Quaterniond& q, int max_iterations, double tolerance) {
  for (int i = 0; i < max_iterations; ++i) {
    const Mat3 R = q.toRotationMatrix();
    const Vec3 spin = R.col(0).cross(F.col(0)) + R.col(1).cross(F.col(1)) + R.col(2).cross(F.col(2));
    const double alignment = std::abs(R.col(0).dot(F.col(0)) + R.col(1).dot(F.col(1)) + R.col(2).dot(F.col(2)));
    const Vec3 omega = spin / (alignment + 1e-9);  // the guard only matters for a collapsed F
    const double angle = omega.norm();
    if (!(angle > tolerance)) return i;  // converged (or F not finite: keep the estimate)
    q = (Eigen::Quaterniond(Eigen::AngleAxisd(angle, omega / angle)) * q).normalized();
  }
  return max_iterations;
}

Eigen::Quaterniond svdRotation(const Mat3& F) {
  const Svd3 svd = svd3(F);
  return Eigen::Quaterniond(Mat3(svd.U * svd.V.transpose())).normalized();
}

}  // namespace qnsim
