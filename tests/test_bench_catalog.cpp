// qnsim_bench --catalog: a quick run of two small scenes writes the report and the CSV with every
// column and sane numbers (never a timing assertion), the paper's rows beside ours; the timing CSV reads
// back what it wrote; the scaling fit recovers a known exponent; the generated bars are valid scenes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "bench/scaling.h"
#include "core/common/files.h"
#include "experiments/timing.h"
#include "qnsim/error.h"
#include "qnsim/scene.h"
#include "qnsim/simulation.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

int runBench(const std::string& arguments, const std::filesystem::path& dir) {
  const std::string command = "timeout 300 " + std::string(QNSIM_BENCH_EXECUTABLE) + " " + arguments + " >" + (dir / "stdout").string() +
                              " 2>" + (dir / "stderr").string();
  const int raw = std::system(command.c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
}

TEST(BenchCatalog, QuickRunOfTwoScenesHasEveryColumnAndSaneNumbers) {
  const auto dir = test::scratchDir("bench_catalog");
  ASSERT_EQ(runBench("--catalog --quick --scenes shaking_bar,thin_sheet --out " + (dir / "out").string(), dir), 0)
      << readFileBytes(dir / "stderr");
  const std::vector<TimingRow> rows = parseTimingCsv(readFileBytes(dir / "out" / "catalog.csv"), "catalog.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].scene, "shaking_bar");
  EXPECT_EQ(rows[1].scene, "thin_sheet");
  for (const TimingRow& r : rows) {
    SCOPED_TRACE(r.scene);
    EXPECT_GT(r.vertices, 0);
    EXPECT_GT(r.tets, 0);
    EXPECT_EQ(r.springs, 0);
    EXPECT_EQ(r.frames, 6);
    EXPECT_GT(r.ms_median, 0);
    EXPECT_GT(r.ms_mean, 0);
    EXPECT_GT(r.cpu_ms, 0);
    const double phases = r.derivatives_ms + r.linear_solve_ms + r.lbfgs_ms + r.line_search_ms + r.contacts_ms;
    for (double phase : {r.derivatives_ms, r.linear_solve_ms, r.lbfgs_ms, r.line_search_ms, r.contacts_ms}) EXPECT_GE(phase, 0);
    EXPECT_GT(r.linear_solve_ms, 0);
    EXPECT_LE(phases, r.ms_mean);
    EXPECT_GE(r.ls_trials, 10);  // 10 iterations per frame, each at least one trial
    EXPECT_EQ(r.error_samples, 1);
    EXPECT_GT(r.newton_ms, 0);
    for (double e : {r.ours_error, r.newton_error}) {
      EXPECT_GE(e, 0);
      EXPECT_LE(e, 1);
    }
    EXPECT_GT(r.ours_peak_mib, 1);
    EXPECT_LE(r.ours_peak_mib, r.peak_mib);
    ASSERT_NE(paperTimingRow(r.scene), nullptr);
  }
  const std::string csv = readFileBytes(dir / "out" / "catalog.csv");
  EXPECT_NE(csv.find(",7.2,"), std::string::npos) << "the paper's 7.2 ms for the shaking bar:\n" << csv;
  const std::string md = readFileBytes(dir / "out" / "catalog.md");
  for (const char* needle :
       {"Machine: ", "thread(s)", "sparse Cholesky", "Load average", "| shaking_bar |", "| thin_sheet |", "[7.2]", "[4.4]",
        "peak memory (MiB)", "CPU, all threads", "L-BFGS overhead", "Newton / ours", "linear solves", "contacts", "### Scaling", "s = "})
    EXPECT_NE(md.find(needle), std::string::npos) << needle;
  EXPECT_EQ(md, readFileBytes(dir / "stdout")) << "the report is printed as written";
  // The scaling curve: the two smallest bars, no Newton; the plot beside the report.
  const std::vector<TimingRow> bars = parseTimingCsv(readFileBytes(dir / "out" / "scaling.csv"), "scaling.csv");
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_EQ(bars[0].tets, 990);
  EXPECT_EQ(bars[1].tets, 3375);
  EXPECT_TRUE(std::isnan(bars[0].newton_ms));
  for (const char* file : {"scaling.png", "scaling.svg", "scenes/twisting_bar_990.json"})
    EXPECT_TRUE(std::filesystem::exists(dir / "out" / file)) << file;
}

TEST(BenchCatalog, AnUnknownSceneIsAnErrorListingTheScenes) {
  const auto dir = test::scratchDir("bench_unknown");
  EXPECT_EQ(runBench("--catalog --quick --scenes no_such_scene --out " + (dir / "out").string(), dir), 1);
  const std::string err = readFileBytes(dir / "stderr");
  EXPECT_NE(err.find("no_such_scene"), std::string::npos) << err;
  EXPECT_NE(err.find("squirrel_head_large"), std::string::npos) << err;
}

// Three rounds: each scene's times are those of its median round (by median ms per frame), Newton's
// samples and the memory those of the first, which alone ran Newton.
TEST(BenchCatalog, RoundsReportEachScenesMedianRound) {
  const auto dir = test::scratchDir("bench_rounds");
  ASSERT_EQ(runBench("--catalog --quick --rounds 3 --scaling 0 --scenes shaking_bar --out " + (dir / "out").string(), dir), 0)
      << readFileBytes(dir / "stderr");
  const auto rowsOf = [&](const std::string& file) { return parseTimingCsv(readFileBytes(dir / "out" / file), file); };
  const std::vector<TimingRow> report = rowsOf("catalog.csv");
  ASSERT_EQ(report.size(), 1u);
  std::vector<TimingRow> rounds;
  for (const char* file : {"rows/shaking_bar.csv", "rows/shaking_bar.round2.csv", "rows/shaking_bar.round3.csv"}) {
    ASSERT_TRUE(std::filesystem::exists(dir / "out" / file)) << file;
    rounds.push_back(rowsOf(file).at(0));
  }
  EXPECT_EQ(rounds[0].error_samples, 1);
  EXPECT_EQ(rounds[1].error_samples, 0) << "Newton only in the first round";
  std::vector<double> medians = {rounds[0].ms_median, rounds[1].ms_median, rounds[2].ms_median};
  std::sort(medians.begin(), medians.end());
  const TimingRow& r = report[0];
  EXPECT_EQ(r.ms_median, medians[1]);
  const auto median_round = std::find_if(rounds.begin(), rounds.end(), [&](const TimingRow& x) { return x.ms_median == medians[1]; });
  EXPECT_EQ(r.cpu_ms, median_round->cpu_ms) << "every time of that one round";
  EXPECT_EQ(r.line_search_ms, median_round->line_search_ms);
  EXPECT_EQ(r.newton_ms, rounds[0].newton_ms);
  EXPECT_EQ(r.ours_error, rounds[0].ours_error);
  EXPECT_EQ(r.ours_peak_mib, rounds[0].ours_peak_mib);
  EXPECT_NE(readFileBytes(dir / "out" / "catalog.md").find("3 rounds"), std::string::npos);
}

TEST(TimingCsv, ReadsBackWhatItWroteWithEmptyCellsForMissingValues) {
  TimingRow a;
  a.scene = "hippo";
  a.vertices = 2478, a.tets = 8325, a.ms_median = 21.75, a.lbfgs_ms = 0.125, a.ours_error = 2.5e-3;
  TimingRow b;
  b.scene = "twisting_bar_990";
  b.peak_mib = 12;
  const std::string csv = timingCsv({a, b});
  const std::vector<TimingRow> back = parseTimingCsv(csv, "rows.csv");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].scene, "hippo");
  for (const TimingColumn& c : timingColumns()) {
    SCOPED_TRACE(c.name);
    for (int i = 0; i < 2; ++i) {
      const TimingRow& written = i == 0 ? a : b;
      if (std::isnan(written.*c.value))
        EXPECT_TRUE(std::isnan(back[i].*c.value));
      else
        EXPECT_EQ(back[i].*c.value, written.*c.value);
    }
  }
  EXPECT_NE(csv.find(",40.6,"), std::string::npos) << "the paper's hippo row";
  try {
    parseTimingCsv(csv + "broken,1,2\n", "rows.csv");
    FAIL() << "a short line was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rows.csv:4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parseTimingCsv("scene,vertices\nx,1\n", "old.csv"), Error);
}

TEST(ScalingFit, RecoversTheExponentOfSyntheticData) {
  const std::vector<double> tets = {990, 3375, 11520, 38880, 130050};
  std::vector<double> exact, noisy;
  const double wobble[] = {1.05, 0.96, 1.02, 0.97, 1.04};  // +-5 %, as a busy machine would add
  for (size_t i = 0; i < tets.size(); ++i) {
    exact.push_back(0.004 * std::pow(tets[i], 1.1));
    noisy.push_back(exact.back() * wobble[i]);
  }
  const bench::PowerFit fit = bench::fitPowerLaw(tets, exact);
  EXPECT_NEAR(fit.slope, 1.1, 1e-12);
  EXPECT_NEAR(fit.scale, 0.004, 1e-12);
  EXPECT_NEAR(fit.r2, 1.0, 1e-12);
  const bench::PowerFit rough = bench::fitPowerLaw(tets, noisy);
  EXPECT_NEAR(rough.slope, 1.1, 0.03);
  EXPECT_LT(rough.r2, 1.0);
  EXPECT_GT(rough.r2, 0.99);
  // Points that cannot enter a log-log fit are left out; too few points give no fit.
  EXPECT_NEAR(bench::fitPowerLaw({0, 10, 100, -1}, {5, 1, 100, 3}).slope, 2.0, 1e-12);
  EXPECT_TRUE(std::isnan(bench::fitPowerLaw({10}, {1}).slope));
  EXPECT_TRUE(std::isnan(bench::fitPowerLaw({10, 10}, {1, 2}).slope));
  const plot::PlotSpec p = bench::scalingPlot(tets, noisy, rough, exact);
  ASSERT_EQ(p.series.size(), 4u);  // the fit, slope 1, the CPU times, the medians
  EXPECT_TRUE(p.x.log && p.y.log);
  EXPECT_EQ(p.series.back().y, noisy);
  EXPECT_NEAR(p.series[0].y.back() / p.series[0].y.front(), std::pow(130050 / 990.0, rough.slope), 1e-9);
  EXPECT_NEAR(p.series[1].y.back() / p.series[1].y.front(), 130050 / 990.0, 1e-9);
  EXPECT_GT(p.y.hi, *std::max_element(noisy.begin(), noisy.end()));
}

TEST(ScalingBars, AreTheTwistingBarAsBoxesOfTheListedSize) {
  const auto& cells = bench::scalingBarCells();
  ASSERT_EQ(cells.size(), 5u);
  EXPECT_LE(5 * cells.front().prod(), 1000);
  EXPECT_GE(5 * cells.back().prod(), 130000);
  const Scene twisting = loadScene(catalogScenePath("twisting_bar"));
  const Scene bar = parseScene(bench::scalingBarScene(cells.front()), test::scratchDir("bars") / "bar.json");
  EXPECT_EQ(bar.bodies.at(0).mesh.T.rows(), 5 * cells.front().prod());
  EXPECT_EQ(bar.bodies[0].handles.size(), twisting.bodies[0].handles.size());
  EXPECT_EQ(bar.frames, twisting.frames);
  Simulation sim(bar);  // both ends are held: the handles select vertices of the box
  sim.step();
  EXPECT_TRUE(sim.positions().allFinite());
  EXPECT_GT(sim.model().attachments.size(), 0u);
}

}  // namespace
}  // namespace qnsim
