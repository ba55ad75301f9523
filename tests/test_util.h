#pragma once
// Helpers shared by the tests: warning capture, tolerance scaling, paths to scenes and test data,
// finite differences.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/scene/catalog.h"  // the scenes the tests load
#include "qnsim/types.h"

namespace qnsim::test {

// Called for every core warning: recorded if a test expects warnings, otherwise a test failure.
void onWarning(const std::string& message);

// While alive, warnings are collected instead of failing the test.
class ExpectWarnings {
 public:
  ExpectWarnings();
  ~ExpectWarnings();
  const std::vector<std::string>& messages() const;
};

// Tolerances of regression tests are multiplied by QNSIM_TOL_SCALE (default 1), as MuJoCo does with
// MJTOL_SCALE: run with QNSIM_TOL_SCALE=0 to see every measured residual printed, then set the
// tolerance about 10x above it.
double toleranceScale();

inline std::filesystem::path sourceDir() { return QNSIM_SOURCE_DIR; }
inline std::filesystem::path testDataDir() { return QNSIM_TEST_DATA_DIR; }

// Central differences of energy.evaluate(x, nullptr), one coordinate at a time (step h).
template <class Energy>
VecX finiteDifferenceGradient(Energy& energy, const VecX& x, double h = 1e-6) {
  VecX g(x.size()), xp = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    xp[i] = x[i] + h;
    const double plus = energy.evaluate(xp, nullptr);
    xp[i] = x[i] - h;
    const double minus = energy.evaluate(xp, nullptr);
    xp[i] = x[i];
    g[i] = (plus - minus) / (2 * h);
  }
  return g;
}

// Central differences of a scalar function of a 3x3 matrix, one entry at a time (step h).
template <class Function>
Mat3 finiteDifferenceMatrix(const Function& f, const Mat3& F, double h = 1e-6) {
  Mat3 d;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Mat3 plus = F, minus = F;
      plus(i, j) += h;
      minus(i, j) -= h;
      d(i, j) = (f(plus) - f(minus)) / (2 * h);
    }
  return d;
}

// A fresh empty folder under the system temporary directory, one per test process and name.
std::filesystem::path scratchDir(const std::string& name);
// Removes every scratch directory this process made.
void removeScratchDirs();

}  // namespace qnsim::test
