// The inversion-aware SVD: reconstruction, proper rotations, ordering, and the sign convention; the
// polar rotation by Newton's iteration, which must be the SVD's U V^T.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <random>

#include "core/math/polar3.h"
#include "core/math/svd3.h"

namespace qnsim {
namespace {

Mat3 randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Eigen::Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
}

void expectValid(const Mat3& F, const Svd3& s) {
  EXPECT_LE((s.U * s.sigma.asDiagonal() * s.V.transpose() - F).norm(), 1e-12 * std::max(1.0, F.norm())) << F;
  EXPECT_NEAR(s.U.determinant(), 1.0, 1e-12);
  EXPECT_NEAR(s.V.determinant(), 1.0, 1e-12);
  EXPECT_LE((s.U.transpose() * s.U - Mat3::Identity()).norm(), 1e-12);
  EXPECT_LE((s.V.transpose() * s.V - Mat3::Identity()).norm(), 1e-12);
  EXPECT_GE(s.sigma[0], s.sigma[1] - 1e-12);
  EXPECT_GE(s.sigma[1], std::abs(s.sigma[2]) - 1e-12);
  EXPECT_GE(s.sigma[1], 0.0);
}

TEST(Svd3, RandomMatricesReconstructWithRotations) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int i = 0; i < 2000; ++i) {
    Mat3 F;
    for (int k = 0; k < 9; ++k) F(k / 3, k % 3) = u(rng);
    const Svd3 s = svd3(F);
    expectValid(F, s);
    EXPECT_EQ(s.sigma[2] < 0, F.determinant() < 0) << F;  // the reflection lives in sigma3
  }
}

TEST(Svd3, InvertedElementPutsReflectionInSmallestStretch) {
  std::mt19937 rng(2);
  const Mat3 U = randomRotation(rng), V = randomRotation(rng);
  const Mat3 F = U * Vec3(1.5, 0.8, -0.3).asDiagonal() * V.transpose();
  const Svd3 s = svd3(F);
  expectValid(F, s);
  EXPECT_NEAR(s.sigma[0], 1.5, 1e-12);
  EXPECT_NEAR(s.sigma[1], 0.8, 1e-12);
  EXPECT_NEAR(s.sigma[2], -0.3, 1e-12);
}

TEST(Svd3, DegenerateAndRepeatedSingularValues) {
  std::mt19937 rng(3);
  const Mat3 R = randomRotation(rng);
  const std::vector<Mat3> cases = {Mat3::Zero(), Mat3::Identity(), R, -R, R * Vec3(2, 2, 1).asDiagonal(),
                                   R * Vec3(1, 0, 0).asDiagonal(), Vec3(1, 1, 0).asDiagonal(), Vec3(1e-9, 1, 1).asDiagonal(),
                                   Vec3(1, 1, 1).asDiagonal() * 1e8};
  for (const Mat3& F : cases) expectValid(F, svd3(F));
}

TEST(Svd3, BatchesGiveTheSameResultsAsSingleMatrices) {
  // Batches of every size up to two lane blocks and a tail, mixing ordinary, inverted, repeated and
  // degenerate matrices, so lanes converge after different numbers of sweeps.
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  std::vector<Mat3> F = {Mat3::Zero(), Mat3::Identity(), -randomRotation(rng), Vec3(1e-9, 1, 1).asDiagonal()};
  while (F.size() < 19) {
    Mat3 A;
    for (int k = 0; k < 9; ++k) A(k / 3, k % 3) = u(rng);
    F.push_back(A);
  }
  for (int count = 1; count <= static_cast<int>(F.size()); ++count) {
    std::vector<Svd3> batch(count);
    svd3(F.data(), count, batch.data());
    for (int i = 0; i < count; ++i) {
      const Svd3 single = svd3(F[i]);
      expectValid(F[i], batch[i]);
      EXPECT_EQ(batch[i].sigma, single.sigma) << "matrix " << i << " of " << count;
      EXPECT_EQ(batch[i].U, single.U) << "matrix " << i << " of " << count;
      EXPECT_EQ(batch[i].V, single.V) << "matrix " << i << " of " << count;
    }
  }
}

TEST(Polar3, BatchesGiveTheSameRotationsAsSingleMatrices) {
  // Batches of every size up to two lane blocks and a tail: ordinary, inverted and flat matrices, so
  // lanes stop after different numbers of steps or never start.
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-0.4, 0.4);
  std::vector<Mat3> F = {Mat3::Identity(), Mat3(Vec3(1, 1, -1).asDiagonal()), Mat3(Vec3(1, 1, 1e-4).asDiagonal())};
  while (F.size() < 19) {
    Mat3 A = randomRotation(rng);
    for (int k = 0; k < 9; ++k) A(k / 3, k % 3) += u(rng);
    F.push_back(A);
  }
  for (int count = 1; count <= static_cast<int>(F.size()); ++count) {
    std::vector<Mat3> R(count);
    bool converged[19];
    polarRotations(F.data(), count, R.data(), converged);
    for (int i = 0; i < count; ++i) {
      Mat3 single;
      const bool ok = polarRotation(F[i], single);
      ASSERT_EQ(converged[i], ok) << "matrix " << i << " of " << count;
      if (ok) {
        EXPECT_EQ(R[i], single) << "matrix " << i << " of " << count;
      }
    }
  }
}

TEST(Polar3, NewtonsRotationIsTheSvdsForEveryUninvertedMatrix) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int tried = 0;
  for (int i = 0; i < 2000; ++i) {
    Mat3 F = randomRotation(rng);
    const double strain = i % 3 == 0 ? 0.02 : i % 3 == 1 ? 0.3 : 1.5;
    for (int k = 0; k < 9; ++k) F(k / 3, k % 3) += strain * u(rng);
    if (F.determinant() < 1e-3) continue;
    ++tried;
    Mat3 R;
    ASSERT_TRUE(polarRotation(F, R)) << F;
    const Svd3 svd = svd3(F);
    EXPECT_LE((R - svd.U * svd.V.transpose()).norm(), 1e-12 * (1.0 + svd.sigma[0] / svd.sigma[2])) << F;
    EXPECT_LE((R.transpose() * R - Mat3::Identity()).norm(), 1e-14) << F;
    const Mat3 S = R.transpose() * F;
    EXPECT_LE((S - S.transpose()).norm(), 1e-12 * F.norm()) << F;
  }
  EXPECT_GT(tried, 1500);
}

TEST(Polar3, InvertedFlatAndNonFiniteMatricesAreLeftToTheSvd) {
  Mat3 R;
  EXPECT_FALSE(polarRotation(Mat3(Vec3(1, 1, -1).asDiagonal()), R));
  EXPECT_FALSE(polarRotation(Mat3(Vec3(1, 1, 1e-4).asDiagonal()), R));
  EXPECT_FALSE(polarRotation(Mat3::Zero(), R));
  Mat3 nan = Mat3::Identity();
  nan(1, 2) = std::nan("");
  EXPECT_FALSE(polarRotation(nan, R));
  EXPECT_TRUE(polarRotation(Mat3(Vec3(1e3, 1, 0.05).asDiagonal()), R));  // large but finite stretches converge
  EXPECT_LE((R - Mat3::Identity()).norm(), 1e-14);
}


// The step count the benchmark's flop count uses: one step where F is already a rotation (its step
// changes nothing), more the farther F's stretches are from 1 (quadratic convergence: 1 % takes 3,
// 30 % takes 5), none where the iteration does not start.
TEST(Polar3, StepsGrowWithTheStretchAndAreNoneForAFlatMatrix) {
  const Mat3 turn = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  EXPECT_EQ(polarSteps(turn), 1);
  const int small = polarSteps(turn * Mat3(Vec3(1.01, 0.99, 1.0).asDiagonal()));
  const int large = polarSteps(turn * Mat3(Vec3(1.3, 0.7, 1.0).asDiagonal()));
  EXPECT_GE(small, 2);
  EXPECT_GT(large, small);
  EXPECT_LE(large, 6);
  EXPECT_EQ(polarSteps(Mat3(Vec3(1, 1, -1).asDiagonal())), 0);
}
}  // namespace
}  // namespace qnsim
