#include "core/math/polar3.h"

#include <algorithm>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace qnsim {
namespace {

// Newton's iteration on Lanes matrices side by side, X[3c + r][l] = X(r, c) of lane l; a lane stops
// (and is left as it is) once its step falls below 1e-8: the error after a step is about half the
// square of the step before it, so the next would change nothing but round-off.
template <int Lanes>
struct PolarLanes {
  double X[9][Lanes];
  bool iterating[Lanes];
};

constexpr double kConverged = 1e-16;  // squared Frobenius norm of the step
constexpr int kMaxSteps = 20;

// One step X <- (X + X^-T) / 2 of lane l, X^-T = cof(X) / det X with the cofactor columns
// x1 x x2, x2 x x0, x0 x x1 of the columns x0, x1, x2. Returns the squared length of the step.
template <int Lanes>
double stepLane(PolarLanes<Lanes>& P, int l) {
  double x[9], cofactor[9];
  for (int k = 0; k < 9; ++k) x[k] = P.X[k][l];
  for (int c = 0; c < 3; ++c) {
    const double* a = x + 3 * ((c + 1) % 3);
    const double* b = x + 3 * ((c + 2) % 3);
    cofactor[3 * c] = a[1] * b[2] - a[2] * b[1];
    cofactor[3 * c + 1] = a[2] * b[0] - a[0] * b[2];
    cofactor[3 * c + 2] = a[0] * b[1] - a[1] * b[0];
  }
  const double half_inverse = 0.5 / (x[0] * cofactor[0] + x[1] * cofactor[1] + x[2] * cofactor[2]);
  double change = 0.0;
  for (int k = 0; k < 9; ++k) {
    const double next = 0.5 * x[k] + half_inverse * cofactor[k];
    change += (next - x[k]) * (next - x[k]);
    P.X[k][l] = next;
  }
  return change;
}

#ifdef __SSE2__
// stepLane for lanes l and l + 1 in SSE2 registers (the compiler does not vectorise across lanes by
// itself): the same operations in the same order, so the results are stepLane's, bit for bit. A lane
// that is not iterating keeps its X.
template <int Lanes>
void stepPair(PolarLanes<Lanes>& P, int l, double* change) {
  __m128d x[9], cofactor[9];
  for (int k = 0; k < 9; ++k) x[k] = _mm_loadu_pd(&P.X[k][l]);
  for (int c = 0; c < 3; ++c) {
    const __m128d* a = x + 3 * ((c + 1) % 3);
    const __m128d* b = x + 3 * ((c + 2) % 3);
    cofactor[3 * c] = _mm_sub_pd(_mm_mul_pd(a[1], b[2]), _mm_mul_pd(a[2], b[1]));
    cofactor[3 * c + 1] = _mm_sub_pd(_mm_mul_pd(a[2], b[0]), _mm_mul_pd(a[0], b[2]));
    cofactor[3 * c + 2] = _mm_sub_pd(_mm_mul_pd(a[0], b[1]), _mm_mul_pd(a[1], b[0]));
  }
  const __m128d det = _mm_add_pd(_mm_add_pd(_mm_mul_pd(x[0], cofactor[0]), _mm_mul_pd(x[1], cofactor[1])), _mm_mul_pd(x[2], cofactor[2]));
  const __m128d keep = _mm_castsi128_pd(_mm_set_epi64x(P.iterating[l + 1] ? -1 : 0, P.iterating[l] ? -1 : 0));
  const __m128d half = _mm_set1_pd(0.5), half_inverse = _mm_div_pd(half, _mm_or_pd(_mm_and_pd(keep, det), _mm_andnot_pd(keep, half)));
  __m128d sum = _mm_setzero_pd();
  for (int k = 0; k < 9; ++k) {
    const __m128d next = _mm_add_pd(_mm_mul_pd(half, x[k]), _mm_mul_pd(half_inverse, cofactor[k]));
    const __m128d step = _mm_sub_pd(next, x[k]);
    sum = _mm_add_pd(sum, _mm_mul_pd(step, step));
    _mm_storeu_pd(&P.X[k][l], _mm_or_pd(_mm_and_pd(keep, next), _mm_andnot_pd(keep, x[k])));
  }
  _mm_storeu_pd(change, sum);
}
#endif

template <int Lanes>
void polarLanes(const Mat3* F, int count, Mat3* R, bool* converged, double min_det) {
  PolarLanes<Lanes> P;
  for (int l = 0; l < Lanes; ++l) {
    const Mat3 A = l < count ? F[l] : Mat3::Identity();
    for (int k = 0; k < 9; ++k) P.X[k][l] = A(k % 3, k / 3);
    P.iterating[l] = l < count && A.determinant() >= min_det;  // false for NaN too
    if (l < count) converged[l] = false;
  }
  for (int step = 0; step < kMaxSteps && std::any_of(P.iterating, P.iterating + Lanes, [](bool b) { return b; }); ++step) {
    double change[Lanes];
    int l = 0;
#ifdef __SSE2__
    for (; l + 2 <= Lanes; l += 2) stepPair(P, l, change + l);
#endif
    for (; l < Lanes; ++l) change[l] = P.iterating[l] ? stepLane(P, l) : 0.0;
    for (l = 0; l < count; ++l)
      if (P.iterating[l] && change[l] <= kConverged) P.iterating[l] = false, converged[l] = true;
  }
  for (int l = 0; l < count; ++l)
    for (int k = 0; k < 9; ++k) R[l](k % 3, k / 3) = P.X[k][l];
}

}  // namespace

bool polarRotation(const Mat3& F, Mat3& R, double min_det) {
  bool converged;
  polarLanes<1>(&F, 1, &R, &converged, min_det);
  return converged;
}

void polarRotations(const Mat3* F, int count, Mat3* R, bool* converged, double min_det) {
  constexpr int kLanes = 4;
  for (int start = 0; start < count; start += kLanes)
    polarLanes<kLanes>(F + start, std::min(kLanes, count - start), R + start, converged + start, min_det);
}

}  // namespace qnsim
