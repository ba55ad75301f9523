// The packed LDL^T solve of A = M/h^2 + L (packed_ldlt.h): the same solution as Eigen's, split along
// the elimination tree for two threads, bit-identical whatever the thread count, with portable and
// AVX2 kernels that agree.
#include <gtest/gtest.h>

#include <future>
#include <random>

#include "core/common/parallel.h"
#include "core/solver/linear/packed_ldlt.h"
#include "core/solver/linear/sparse_cholesky.h"
#include "core/solver/system_matrix.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

struct RestoreThreads {
  ~RestoreThreads() { setThreadCount(0); }
};

// A of a box with cells^3 cells, one scene as every solve of the paper's method sees it.
SparseMatrix boxMatrix(int cells) {
  const std::string n = std::to_string(cells);
  const BuiltModel built = test::buildInline(R"({"version": 1, "bodies": [{"name": "box", "shape": {"type": "box", "size": [1, 1, 1],
    "cells": [)" + n + "," + n + "," + n + R"(]}, "density": 1000, "materials": [{"model": "neo_hookean"}],
    "handles": [{"select": {"indices": [0]}, "stiffness": 1e4}]}]})");
  return SystemMatrix(built.model, 900.0).matrix();
}

MatX3 randomRows(Eigen::Index n, int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MatX3 B(n, 3);
  for (Eigen::Index i = 0; i < B.size(); ++i) B.data()[i] = u(rng);
  return B;
}

PackedLdlt packedFactor(const SparseMatrix& A) {
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> ldlt(A);
  EXPECT_EQ(ldlt.info(), Eigen::Success);
  PackedLdlt packed;
  packed.assign(ldlt);
  return packed;
}

TEST(PackedLdlt, SolvesLikeADirectSolveWithTheWorkSplitIntoParts) {
  const SparseMatrix A = boxMatrix(14);
  PackedLdlt packed = packedFactor(A);
  EXPECT_EQ(packed.parts(), 4);
  EXPECT_GT(packed.topShare(), 0.0);
  EXPECT_LT(packed.topShare(), 0.5);  // most of the work is in the parts, which run in parallel
  const MatX3 B = randomRows(A.rows(), 1);
  MatX3 X = B;
  packed.solveRows(X);
  const MatX residual = A.selfadjointView<Eigen::Lower>() * MatX(X) - MatX(B);
  EXPECT_LE(residual.norm(), 1e-12 * B.norm());
}

// Supernodes relaxed with explicit zeros (at most a fifth of what a supernode stores) solve as the
// exact ones do.
TEST(PackedLdlt, RelaxedSupernodesStoreSomeZerosAndSolveAlike) {
  const SparseMatrix A = boxMatrix(10);
  PackedLdlt packed = packedFactor(A);
  EXPECT_GT(packed.storedEntries(), packed.entries());
  EXPECT_LT(packed.storedEntries(), packed.entries() * 5 / 4 + packed.size());
  const MatX3 B = randomRows(A.rows(), 6);
  MatX3 X = B;
  packed.solveRows(X);
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> ldlt(A);
  const MatX expected = ldlt.solve(MatX(B));
  EXPECT_LE((MatX(X) - expected).norm(), 1e-12 * expected.norm());
}

TEST(PackedLdlt, SmallFactorsAreOnePart) {
  const SparseMatrix A = boxMatrix(2);
  PackedLdlt packed = packedFactor(A);
  EXPECT_EQ(packed.parts(), 1);
  EXPECT_EQ(packed.topShare(), 0.0);
  const MatX3 B = randomRows(A.rows(), 2);
  MatX3 X = B;
  packed.solveRows(X);
  EXPECT_LE((A.selfadjointView<Eigen::Lower>() * MatX(X) - MatX(B)).norm(), 1e-12 * B.norm());
}

TEST(PackedLdlt, ResultsDoNotDependOnTheThreadCount) {
  RestoreThreads restore;
  const SparseMatrix A = boxMatrix(14);
  PackedLdlt packed = packedFactor(A);
  const MatX3 B = randomRows(A.rows(), 3);
  MatX3 one = B, two = B, three = B;
  setThreadCount(1);
  packed.solveRows(one);
  setThreadCount(2);
  packed.solveRows(two);
  setThreadCount(3);
  packed.solveRows(three);
  EXPECT_EQ(one, two);
  EXPECT_EQ(one, three);
}

// The AVX2/FMA kernels (where the CPU has them) and the portable ones: the same solution up to
// round-off, each to a residual of round-off.
TEST(PackedLdlt, PortableAndVectorKernelsSolveAlike) {
  const SparseMatrix A = boxMatrix(14);
  PackedLdlt packed = packedFactor(A);
  const MatX3 B = randomRows(A.rows(), 5);
  MatX3 portable = B, vector = B;
  packed.setSimd(false);
  EXPECT_FALSE(packed.simd());
  packed.solveRows(portable);
  packed.setSimd(true);
  packed.solveRows(vector);
  const auto residual = [&](const MatX3& X) { return (A.selfadjointView<Eigen::Lower>() * MatX(X) - MatX(B)).norm() / B.norm(); };
  EXPECT_LE(residual(portable), 1e-12);
  EXPECT_LE(residual(vector), 1e-12);
  EXPECT_LE((portable - vector).norm(), 1e-12 * portable.norm());
  if (!packed.simd()) GTEST_SKIP() << "this CPU has no AVX2 with FMA: only the portable kernels ran";
}

TEST(PackedLdlt, TheBuildsBackendSolvesRowsLikeItsColumnSolve) {
  const SparseMatrix A = boxMatrix(14);
  auto cholesky = SparseCholesky::create();
  cholesky->analyze(A);
  cholesky->factorize(A);
  const MatX3 B = randomRows(A.rows(), 4);
  MatX3 rows = B;
  cholesky->solveRows(rows);
  MatX columns = B;
  cholesky->solve(columns);
  EXPECT_LE((MatX(rows) - columns).norm(), 1e-12 * columns.norm());
}

// Factorisations on several threads at once (a refactorisation of A beside an exact solve, two
// simulations in one process) find the same factor as one alone: the same solution, bit for bit.
TEST(SparseCholesky, FactorsOnSeveralThreadsAtOnceAreTheSameAsOneAlone) {
  const SparseMatrix A = boxMatrix(8);
  const MatX3 b = randomRows(A.rows(), 7);
  const auto solved = [&] {
    std::unique_ptr<SparseCholesky> cholesky = SparseCholesky::create();
    cholesky->analyze(A);
    cholesky->factorize(A);
    MatX3 x = b;
    cholesky->solveRows(x);
    return x;
  };
  const MatX3 alone = solved();
  for (int round = 0; round < 4; ++round) {
    std::vector<std::future<MatX3>> together;
    for (int t = 0; t < 3; ++t) together.push_back(std::async(std::launch::async, solved));
    for (auto& f : together) EXPECT_TRUE(f.get() == alone) << "round " << round;
  }
}

}  // namespace
}  // namespace qnsim
