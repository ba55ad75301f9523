#include "core/math/svd3.h"

#include <algorithm>
#include <cmath>

#include "core/common/simd.h"
#include "core/math/svd3_kernels.h"

namespace qnsim {
namespace {

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

// The SVDs of count <= Lanes matrices in the lanes' kernels (the AVX2 build where the CPU has it),
// then the Givens QR for the lanes that need it.
template <int Lanes>
void decompose(const Mat3* F, int count, Svd3* out) {
  SvdLanes<Lanes> svd;
  for (int l = 0; l < Lanes; ++l)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) svd.F[r][c][l] = l < count ? F[l](r, c) : r == c ? 1.0 : 0.0;
  if (avx2Available()) svd_avx2::decompose(svd);
  else svd_portable::decompose(svd);
  for (int l = 0; l < count; ++l) {
    Svd3& o = out[l];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) o.V(r, c) = svd.V[r][c][l], o.U(r, c) = svd.U[r][c][l];
    o.sigma = Vec3(svd.sigma[0][l], svd.sigma[1][l], svd.sigma[2][l]);
    if (!(o.sigma[1] > 1e-8 * o.sigma[0])) givensQr(F[l] * o.V, o);  // nearly rank-deficient F V
  }
}

}  // namespace

void svd3(const Mat3* F, int count, Svd3* out) {
  for (int start = 0; start < count; start += kSvdLanes) decompose<kSvdLanes>(F + start, std::min(kSvdLanes, count - start), out + start);
}

Svd3 svd3(const Mat3& F) {
  Svd3 out;
  decompose<1>(&F, 1, &out);
  return out;
}

}  // namespace qnsim
