// Headless regression runs of the scene files: no NaN over the whole run, telemetry equal to the
// recorded runs in tests/data/regression/ within tolerances scaled by QNSIM_TOL_SCALE (set it to 0
// to print every residual), and determinism (the same run twice, and with 1 or 2 threads, gives
// bit-identical positions). Recordings are regenerated with
//   qnsim run scenes/NAME.json --frames 30 --threads 1 -q --frame-csv tests/data/regression/NAME.csv
// and backend.txt there names the sparse Cholesky backend and the vector kernels that made them
// (`qnsim version` prints a build's). A run with both the same must match to round-off of the same
// operations (1e-9); with another backend or kernels the operations round differently and the runs
// drift apart slowly, so the comparison allows 1e-6 and says so.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "qnsim/simulation.h"
#include "qnsim/version.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

using Table = std::vector<std::vector<std::string>>;

Table readCsv(const std::filesystem::path& path) {
  std::ifstream in(path);
  Table rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

Table runScene(const std::string& name, int frames) {
  Scene scene = loadScene(catalogScenePath(name));
  applyOverride(scene, "threads", "1");
  Simulation sim(scene);
  std::ostringstream csv;
  writeFrameCsvHeader(csv);
  for (int f = 0; f < frames; ++f) {
    sim.step();
    writeFrameCsvRow(csv, sim.lastFrame());
  }
  const auto path = test::scratchDir("regression_" + name) / "frames.csv";
  std::ofstream(path) << csv.str();
  return readCsv(path);
}

// Whether two kernel choices give the same bits: AVX2's and AVX-512's do (TetKernelBuilds tests it).
bool sameBits(const std::string& a, const std::string& b) {
  const auto family = [](const std::string& kernels) { return kernels == "AVX-512+FMA" ? std::string("AVX2+FMA") : kernels; };
  return family(a) == family(b);
}

// The relative tolerance for this build against the recordings, before QNSIM_TOL_SCALE: round-off of
// the same operations where the backend and the vector kernels are those that recorded them.
double backendTolerance() {
  std::ifstream in(test::testDataDir() / "regression" / "backend.txt");
  std::string backend, kernels;
  std::getline(in, backend);
  std::getline(in, kernels);
  if (backend == sparseBackend() && sameBits(kernels, vectorKernels())) return 1e-9;
  std::printf("regression: recorded with %s and %s kernels, this run uses %s and %s kernels: comparing within round-off (1e-6)\n",
              backend.c_str(), kernels.c_str(), sparseBackend(), vectorKernels());
  return 1e-6;
}

class Regression : public ::testing::TestWithParam<std::string> {};

TEST_P(Regression, TelemetryMatchesTheRecordedRun) {
  const Table expected = readCsv(test::testDataDir() / "regression" / (GetParam() + ".csv"));
  ASSERT_GT(expected.size(), 1u) << "missing recording for " << GetParam();
  const Table actual = runScene(GetParam(), static_cast<int>(expected.size()) - 1);
  ASSERT_EQ(actual.size(), expected.size());
  ASSERT_EQ(actual[0], expected[0]) << "the frame CSV header changed";
  const double scale = test::toleranceScale(), tolerance = backendTolerance();
  const auto bbox = std::find(expected[0].begin(), expected[0].end(), "bbox_diagonal") - expected[0].begin();
  for (size_t column = 0; column < expected[0].size(); ++column) {
    const std::string& name = expected[0][column];
    if (name == "frame_ms" || name == "reference_ms") continue;  // wall time
    // Positions are compared relative to the scene's size, everything else relative to itself or, where
    // it nears zero (a body coming to rest), to a millionth of its largest value in the run.
    const bool position = name.rfind("com_", 0) == 0 || name == "max_penetration" || name == "max_self_penetration";
    double largest = 0;
    for (size_t row = 1; row < expected.size(); ++row) largest = std::max(largest, std::abs(std::stod(expected[row][column])));
    double worst = 0;
    for (size_t row = 1; row < expected.size(); ++row) {
      const double e = std::stod(expected[row][column]), a = std::stod(actual[row][column]);
      ASSERT_TRUE(std::isfinite(a)) << name << " frame " << row;
      const double reference = position ? std::stod(expected[row][bbox]) : std::max({std::abs(e), 1e-6 * largest, 1e-300});
      const double residual = std::abs(a - e) / reference;
      worst = std::max(worst, residual);
      EXPECT_LE(residual, tolerance * scale) << GetParam() << ": " << name << " at frame " << row << ": " << a << " vs recorded " << e;
    }
    if (scale == 0) std::printf("%s %s: largest relative residual %.3g\n", GetParam().c_str(), name.c_str(), worst);
  }
}

TEST_P(Regression, WholeRunStaysFiniteAndUninverted) {
  const Scene scene = loadScene(catalogScenePath(GetParam()));
  Simulation sim(scene);
  for (int f = 0; f < scene.frames; ++f) {
    ASSERT_NO_THROW(sim.step()) << "frame " << f + 1;
    ASSERT_EQ(sim.lastFrame().inverted, 0) << "frame " << f + 1;
  }
  EXPECT_TRUE(sim.positions().allFinite());
  EXPECT_EQ(sim.lastFrame().factorizations, 1);
}

TEST_P(Regression, DeterministicAcrossRunsAndThreadCounts) {
  std::vector<VecX> results;
  for (const char* threads : {"1", "1", "2"}) {
    Scene scene = loadScene(catalogScenePath(GetParam()));
    applyOverride(scene, "threads", threads);
    Simulation sim(scene);
    for (int f = 0; f < 15; ++f) sim.step();
    results.push_back(sim.positions());
  }
  EXPECT_TRUE(results[0] == results[1]) << "two single-threaded runs differ";
  EXPECT_TRUE(results[0] == results[2]) << "1 and 2 threads differ";
}

INSTANTIATE_TEST_SUITE_P(Scenes, Regression, ::testing::Values("twisting_bar", "cloth"));

}  // namespace
}  // namespace qnsim
