#include "core/math/svd3.h"

#include <algorithm>
#include <cmath>

#include "core/common/simd.h"
#include "core/math/svd3_kernels.h"

namespace qnsim {
namespace {

// The eigenvectors V[l] (rotations) of F[l]^T F[l] for count <= Lanes matrices, ordered by
// descending eigenvalue. Each lane sweeps until it has converged, so a matrix gets the same result
// in any batch.
template <int Lanes>
void symmetricEigen(const Mat3* F, int count, Mat3* V) {
  SymmetricLanes<Lanes> S;
  double tolerance[Lanes];
  for (int l = 0; l < Lanes; ++l) {
    const Mat3 A = l < count ? Mat3(F[l].transpose() * F[l]) : Mat3::Identity();
    for (int i = 0; i < 3; ++i) {
      S.d[i][l] = A(i, i);
      for (int k = 0; k < 3; ++k) S.V[i][k][l] = i == k;
    }
    S.o[0][l] = A(0, 1), S.o[1][l] = A(0, 2), S.o[2][l] = A(1, 2);
    tolerance[l] = 1e-17 * A.cwiseAbs().maxCoeff();
  }
  if (Lanes > 1 && avx2Available()) svd_avx2::jacobiSweeps(S, tolerance);
  else svd_portable::jacobiSweeps(S, tolerance);
  // Columns placed by the rank of their eigenvalue (ties broken by index), without branches: nearly
  // equal eigenvalues would make a comparison-and-swap sort mispredict. An odd permutation flips
  // det V, so the last column is negated to keep V a rotation.
  for (int l = 0; l < count; ++l) {
    int rank[3];
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      rank[i] = (S.d[j][l] > S.d[i][l] || (S.d[j][l] == S.d[i][l] && j < i)) + (S.d[k][l] > S.d[i][l] || (S.d[k][l] == S.d[i][l] && k < i));
    }
    const bool odd = (rank[0] > rank[1]) ^ (rank[0] > rank[2]) ^ (rank[1] > rank[2]);
    for (int i = 0; i < 3; ++i)
      for (int row = 0; row < 3; ++row) V[l](row, rank[i]) = S.V[row][i][l];
    V[l].col(2) *= odd ? -1.0 : 1.0;
  }
}

// Givens rotation on rows (p, q) of B that zeroes B(q, col), keeping B(p, col) >= 0; Q accumulates G^T.
void givensZero(Mat3& B, Mat3& Q, int p, int q, int col) {
  const double a = B(p, col), b = B(q, col);
  const double r = std::sqrt(a * a + b * b);  // entries are stretches: no overflow to guard against
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

// U and sigma from B = F V by Givens QR: robust when B has (nearly) zero columns.
void givensQr(Mat3 B, Svd3& out) {
  out.U.setIdentity();
  givensZero(B, out.U, 0, 1, 0);
  givensZero(B, out.U, 0, 2, 0);
  givensZero(B, out.U, 1, 2, 1);
  out.sigma = B.diagonal();  // sigma1, sigma2 >= 0 by construction; sigma3 carries sign(det F)
}

// U and sigma from F and V. The columns of B = F V are orthogonal with lengths
// sigma_i, so the QR of B is a Gram-Schmidt of its first two columns, and u3 = u1 x u2 keeps U a
// rotation, with sigma3 = u3 . b3 carrying sign(det F). Nearly rank-deficient B takes the Givens
// path, which needs no division by sigma.
void leftVectors(const Mat3& F, Svd3& out) {
  const Mat3 B = F * out.V;
  const double s1 = B.col(0).norm();
  Vec3 u2 = B.col(1);
  if (s1 > 0.0) u2 -= B.col(0).dot(u2) / (s1 * s1) * B.col(0);
  const double s2 = u2.norm();
  if (!(s2 > 1e-8 * s1)) return givensQr(B, out);
  out.U.col(0) = B.col(0) / s1;
  out.U.col(1) = u2 / s2;
  out.U.col(2) = out.U.col(0).cross(out.U.col(1));
  out.sigma = Vec3(s1, s2, out.U.col(2).dot(B.col(2)));
}

}  // namespace

void svd3(const Mat3* F, int count, Svd3* out) {
  constexpr int kLanes = kSvdLanes;  // enough independent square-root chains to keep the processor busy
  for (int start = 0; start < count; start += kLanes) {
    const int lanes = std::min(kLanes, count - start);
    Mat3 V[kLanes];
    symmetricEigen<kLanes>(F + start, lanes, V);
    for (int l = 0; l < lanes; ++l) {
      out[start + l].V = V[l];
      leftVectors(F[start + l], out[start + l]);
    }
  }
}

Svd3 svd3(const Mat3& F) {
  Svd3 out;
  symmetricEigen<1>(&F, 1, &out.V);
  leftVectors(F, out);
  return out;
}

}  // namespace qnsim
