#include "core/math/svd3.h"

#include <algorithm>
#include <cmath>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace qnsim {
namespace {

// Index of the off-diagonal entry S(p, q), p < q, among (S01, S02, S12).
constexpr int offIndex(int p, int q) { return p + q - 1; }

// Jacobi eigen-decomposition of Lanes symmetric matrices side by side, stored lane-innermost so
// that every step is the same arithmetic on all lanes: the compiler vectorises it and the processor
// overlaps the long sqrt and division chains of independent lanes.
template <int Lanes>
struct SymmetricLanes {
  double d[3][Lanes], o[3][Lanes];  // diagonal and off-diagonal (01, 02, 12) of each S
  double V[3][3][Lanes];            // accumulated rotations
  bool active[Lanes];               // not yet converged; a converged lane is left as it is
};

#ifdef __SSE2__
// The rotation of jacobiRotateLanes for lanes l and l + 1 in SSE2 registers (every x86-64 processor
// has them; the compiler does not vectorise the scalar loop by itself, whose square roots may set
// errno). The same operations in the same order, so the results are the scalar loop's, bit for bit.
template <int p, int q, int r, int pq, int pr, int qr, int Lanes>
inline void jacobiRotatePair(SymmetricLanes<Lanes>& S, int l) {
  const __m128d one = _mm_set1_pd(1.0), sign_bit = _mm_set1_pd(-0.0);
  const auto abs = [&](__m128d x) { return _mm_andnot_pd(sign_bit, x); };
  const auto pick = [](__m128d mask, __m128d yes, __m128d no) { return _mm_or_pd(_mm_and_pd(mask, yes), _mm_andnot_pd(mask, no)); };
  const __m128d spq = _mm_loadu_pd(&S.o[pq][l]), dp = _mm_loadu_pd(&S.d[p][l]), dq = _mm_loadu_pd(&S.d[q][l]);
  const __m128d active = _mm_cmpneq_pd(_mm_set_pd(S.active[l + 1], S.active[l]), _mm_setzero_pd());
  const __m128d rotate = _mm_and_pd(active, _mm_cmpgt_pd(abs(spq), _mm_mul_pd(_mm_set1_pd(1e-18), _mm_add_pd(abs(dp), abs(dq)))));
  const __m128d a = _mm_sub_pd(dq, dp), b = _mm_and_pd(rotate, _mm_mul_pd(_mm_set1_pd(2.0), spq)), abs_a = abs(a);
  const __m128d sign_a = pick(_mm_cmpge_pd(a, _mm_setzero_pd()), one, _mm_set1_pd(-1.0));
  const __m128d radius = _mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(a, a), _mm_mul_pd(b, b)));
  const __m128d denominator = pick(rotate, _mm_mul_pd(_mm_mul_pd(_mm_set1_pd(2.0), radius), _mm_add_pd(radius, abs_a)), one);
  const __m128d scale = _mm_div_pd(_mm_and_pd(rotate, one), _mm_sqrt_pd(denominator));
  const __m128d c = pick(rotate, _mm_mul_pd(_mm_add_pd(abs_a, radius), scale), one), s = _mm_mul_pd(_mm_mul_pd(sign_a, b), scale);
  const __m128d shift = _mm_and_pd(rotate, _mm_mul_pd(_mm_mul_pd(_mm_set1_pd(0.5), sign_a), _mm_sub_pd(radius, abs_a)));
  _mm_storeu_pd(&S.d[p][l], _mm_sub_pd(dp, shift));
  _mm_storeu_pd(&S.d[q][l], _mm_add_pd(dq, shift));
  _mm_storeu_pd(&S.o[pq][l], _mm_andnot_pd(rotate, spq));
  const auto turn = [&](double* x, double* y) {  // (x, y) := (c x - s y, s x + c y)
    const __m128d vx = _mm_loadu_pd(x), vy = _mm_loadu_pd(y);
    _mm_storeu_pd(x, _mm_sub_pd(_mm_mul_pd(c, vx), _mm_mul_pd(s, vy)));
    _mm_storeu_pd(y, _mm_add_pd(_mm_mul_pd(s, vx), _mm_mul_pd(c, vy)));
  };
  turn(&S.o[pr][l], &S.o[qr][l]);
  for (int k = 0; k < 3; ++k) turn(&S.V[k][p][l], &S.V[k][q][l]);
}
#endif

// One Jacobi rotation J zeroing S(p, q) in every active lane: S := J^T S J in the stable form of
// Numerical Recipes, which touches only the entries that change, and V := V J. An inactive lane, or
// one whose S(p, q) is negligible against both diagonal entries, gets the identity rotation.
// With a = S(q,q) - S(p,p), b = 2 S(p,q) and r = |(a, b)|, Numerical Recipes' tangent
// t = sign(a) b / (|a| + r) gives t S(p,q) = sign(a) (r - |a|) / 2 (as b^2 = (r - |a|)(r + |a|)) and
// (c, s) = (|a| + r, sign(a) b) / sqrt(2 r (r + |a|)): two square roots and one division per lane
// instead of two and three.
template <int p, int q, int Lanes>
inline void jacobiRotateLanes(SymmetricLanes<Lanes>& S) {
  constexpr int r = 3 - p - q, pq = offIndex(p, q), pr = offIndex(std::min(p, r), std::max(p, r)),
                qr = offIndex(std::min(q, r), std::max(q, r));
  int l = 0;
#ifdef __SSE2__
  for (; l + 2 <= Lanes; l += 2) jacobiRotatePair<p, q, r, pq, pr, qr, Lanes>(S, l);
#endif
  for (; l < Lanes; ++l) {
    const double spq = S.o[pq][l];
    const bool rotate = S.active[l] && std::abs(spq) > 1e-18 * (std::abs(S.d[p][l]) + std::abs(S.d[q][l]));
    const double a = S.d[q][l] - S.d[p][l], b = rotate ? 2.0 * spq : 0.0, abs_a = std::abs(a), sign_a = a >= 0.0 ? 1.0 : -1.0;
    const double radius = std::sqrt(a * a + b * b);
    const double scale = (rotate ? 1.0 : 0.0) / std::sqrt(rotate ? 2.0 * radius * (radius + abs_a) : 1.0);
    const double c = rotate ? (abs_a + radius) * scale : 1.0, s = sign_a * b * scale;
    const double shift = rotate ? 0.5 * sign_a * (radius - abs_a) : 0.0;  // t S(p, q)
    S.d[p][l] -= shift;
    S.d[q][l] += shift;
    S.o[pq][l] = rotate ? 0.0 : spq;
    const double o_pr = S.o[pr][l], o_qr = S.o[qr][l];
    S.o[pr][l] = c * o_pr - s * o_qr;
    S.o[qr][l] = s * o_pr + c * o_qr;
    for (int k = 0; k < 3; ++k) {
      const double vkp = S.V[k][p][l], vkq = S.V[k][q][l];
      S.V[k][p][l] = c * vkp - s * vkq;
      S.V[k][q][l] = s * vkp + c * vkq;
    }
  }
}

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
  for (int sweep = 0; sweep < 30; ++sweep) {
    bool any = false;
    for (int l = 0; l < Lanes; ++l) {
      const double off = std::abs(S.o[0][l]) + std::abs(S.o[1][l]) + std::abs(S.o[2][l]);
      S.active[l] = !(off <= tolerance[l] || off == 0.0);
      any |= S.active[l];
    }
    if (!any) break;
    jacobiRotateLanes<0, 1>(S);
    jacobiRotateLanes<0, 2>(S);
    jacobiRotateLanes<1, 2>(S);
  }
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
  constexpr int kLanes = 8;  // four SSE2 pairs: enough independent square-root chains to keep the processor busy
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
