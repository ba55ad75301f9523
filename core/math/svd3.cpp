#include "core/math/svd3.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace qnsim {
namespace {

// One Jacobi rotation zeroing S(p,q) of the symmetric matrix S; accumulates the rotation into V.
void jacobiRotate(Mat3& S, Mat3& V, int p, int q) {
  const double spq = S(p, q);
  if (spq == 0.0) return;
  const double theta = (S(q, q) - S(p, p)) / (2.0 * spq);
  const double t = std::copysign(1.0, theta) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
  const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
  for (int k = 0; k < 3; ++k) {  // S := S J
    const double skp = S(k, p), skq = S(k, q);
    S(k, p) = c * skp - s * skq;
    S(k, q) = s * skp + c * skq;
  }
  for (int k = 0; k < 3; ++k) {  // S := J^T S
    const double spk = S(p, k), sqk = S(q, k);
    S(p, k) = c * spk - s * sqk;
    S(q, k) = s * spk + c * sqk;
  }
  S(p, q) = S(q, p) = 0.0;
  for (int k = 0; k < 3; ++k) {  // V := V J
    const double vkp = V(k, p), vkq = V(k, q);
    V(k, p) = c * vkp - s * vkq;
    V(k, q) = s * vkp + c * vkq;
  }
}

// Eigenvectors of the symmetric S (columns of V, a rotation) with eigenvalues sorted descending.
void symmetricEigen(Mat3 S, Mat3& V, Vec3& eigenvalues) {
  V.setIdentity();
  const double scale = S.cwiseAbs().maxCoeff();
  for (int sweep = 0; sweep < 30; ++sweep) {
    const double off = std::abs(S(0, 1)) + std::abs(S(0, 2)) + std::abs(S(1, 2));
    if (off <= 1e-17 * scale || off == 0.0) break;
    jacobiRotate(S, V, 0, 1);
    jacobiRotate(S, V, 0, 2);
    jacobiRotate(S, V, 1, 2);
  }
  eigenvalues = S.diagonal();
  // Sort descending; each swap of two columns flips det V, so negate one to stay a rotation.
  for (int i = 0; i < 2; ++i)
    for (int j = 2; j > i; --j)
      if (eigenvalues[j] > eigenvalues[j - 1]) {
        std::swap(eigenvalues[j], eigenvalues[j - 1]);
        V.col(j).swap(V.col(j - 1));
        V.col(j) = -V.col(j);
      }
}

// Givens rotation on rows (p, q) of B that zeroes B(q, col), keeping B(p, col) >= 0; Q accumulates G^T.
void givensZero(Mat3& B, Mat3& Q, int p, int q, int col) {
  const double a = B(p, col), b = B(q, col);
  const double r = std::hypot(a, b);
  if (r == 0.0) return;
  const double c = a / r, s = b / r;
  for (int k = 0; k < 3; ++k) {
    const double bp = B(p, k), bq = B(q, k);
    B(p, k) = c * bp + s * bq;
    B(q, k) = -s * bp + c * bq;
  }
  for (int k = 0; k < 3; ++k) {
    const double qp = Q(k, p), qq = Q(k, q);
    Q(k, p) = c * qp + s * qq;
    Q(k, q) = -s * qp + c * qq;
  }
}

}  // namespace

Svd3 svd3(const Mat3& F) {
  Svd3 out;
  Vec3 eigenvalues;
  symmetricEigen(F.transpose() * F, out.V, eigenvalues);
  Mat3 B = F * out.V;  // columns are U's columns scaled by sigma
  out.U.setIdentity();
  givensZero(B, out.U, 0, 1, 0);
  givensZero(B, out.U, 0, 2, 0);
  givensZero(B, out.U, 1, 2, 1);
  out.sigma = B.diagonal();  // sigma1, sigma2 >= 0 by construction; sigma3 carries sign(det F)
  return out;
}

}  // namespace qnsim
