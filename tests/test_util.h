#pragma once
// Helpers shared by the tests: warning capture, tolerance scaling, paths to scenes and test data.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

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
inline std::filesystem::path scenePath(const std::string& name) { return sourceDir() / "scenes" / (name + ".json"); }
inline std::filesystem::path testDataDir() { return QNSIM_TEST_DATA_DIR; }

// A fresh empty folder under the system temporary directory, one per test process and name.
std::filesystem::path scratchDir(const std::string& name);

}  // namespace qnsim::test
