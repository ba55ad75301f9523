// The Jacobi sweeps' two builds (core/math/svd3_kernels.h) agree bit for bit: the AVX2 build does the
// portable build's operations in the same order, without fused multiply-adds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "core/common/simd.h"
#include "core/math/svd3_kernels.h"

namespace qnsim {
namespace {

TEST(Svd3Kernels, BothBuildsSweepAlikeBitForBit) {
  if (!avx2Available()) GTEST_SKIP() << "this CPU has no AVX2: only the portable build runs";
  std::mt19937 random(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    SymmetricLanes<kSvdLanes> S{};
    double tolerance[kSvdLanes];
    for (int l = 0; l < kSvdLanes; ++l) {  // S = F^T F of a random F; lane 3 already diagonal
      double F[3][3];
      for (auto& row : F)
        for (double& v : row) v = unit(random);
      double A[3][3] = {};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          for (int k = 0; k < 3; ++k) A[i][j] += F[k][i] * F[k][j];
      for (int i = 0; i < 3; ++i) {
        S.d[i][l] = A[i][i];
        for (int k = 0; k < 3; ++k) S.V[i][k][l] = i == k;
      }
      S.o[0][l] = l == 3 ? 0.0 : A[0][1], S.o[1][l] = l == 3 ? 0.0 : A[0][2], S.o[2][l] = l == 3 ? 0.0 : A[1][2];
      tolerance[l] = 1e-17 * 3.0;
    }
    SymmetricLanes<kSvdLanes> portable = S, vector = S;
    svd_portable::jacobiSweeps(portable, tolerance);
    svd_avx2::jacobiSweeps(vector, tolerance);
    EXPECT_EQ(std::memcmp(portable.d, vector.d, sizeof portable.d), 0);
    EXPECT_EQ(std::memcmp(portable.o, vector.o, sizeof portable.o), 0);
    EXPECT_EQ(std::memcmp(portable.V, vector.V, sizeof portable.V), 0);
    for (int l = 0; l < kSvdLanes; ++l) EXPECT_LE(std::abs(portable.o[0][l]) + std::abs(portable.o[1][l]) + std::abs(portable.o[2][l]), 1e-12);
  }
}

}  // namespace
}  // namespace qnsim
