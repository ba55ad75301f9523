#include "core/math/polar3.h"

#include <algorithm>

#include "core/common/simd.h"
#include "core/math/polar3_kernels.h"

namespace qnsim {
namespace {

// Returns the steps taken (the most any lane took).
template <int Lanes>
int polarLanes(const Mat3* F, int count, Mat3* R, bool* converged, double min_det) {
  PolarLanes<Lanes> P;
  for (int l = 0; l < Lanes; ++l) {
    const Mat3 A = l < count ? F[l] : Mat3::Identity();
    for (int k = 0; k < 9; ++k) P.X[k][l] = A(k % 3, k / 3);
    P.active[l] = l < count && A.determinant() >= min_det ? 1.0 : 0.0;  // 0 for NaN too
    P.converged[l] = 0.0;
  }
  if (avx2Available()) polar_avx2::polarIterate(P);
  else polar_portable::polarIterate(P);
  for (int l = 0; l < count; ++l) {
    converged[l] = P.converged[l] != 0.0;
    for (int k = 0; k < 9; ++k) R[l](k % 3, k / 3) = P.X[k][l];
  }
  return P.steps;
}

}  // namespace

bool polarRotation(const Mat3& F, Mat3& R, double min_det) {
  bool converged;
  polarLanes<1>(&F, 1, &R, &converged, min_det);
  return converged;
}

int polarSteps(const Mat3& F, double min_det) {
  Mat3 R;
  bool converged;
  return polarLanes<1>(&F, 1, &R, &converged, min_det);
}

void polarRotations(const Mat3* F, int count, Mat3* R, bool* converged, double min_det) {
  for (int start = 0; start < count; start += kPolarLanes)
    polarLanes<kPolarLanes>(F + start, std::min(kPolarLanes, count - start), R + start, converged + start, min_det);
}

}  // namespace qnsim
