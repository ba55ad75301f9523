// `qnsim experiment`: every figure runs at CI size and writes its CSV (the documented columns, one
// curve per method starting from relative error 1; per-frame quantities over time; table rows), SVG
// and PNG; the PNG rasteriser draws what it is given.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "core/common/error.h"
#include "experiments/experiment.h"
#include "plot/png.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

class QuickExperiment : public ::testing::TestWithParam<std::string> {};

TEST_P(QuickExperiment, WritesItsFiguresAndAComparisonWithThePaper) {
  const auto dir = test::scratchDir("experiment_" + GetParam());
  const ExperimentReport report = findExperiment(GetParam()).run({dir, true, {}});
  EXPECT_FALSE(report.paper.empty());
  EXPECT_FALSE(report.summary.empty());
  ASSERT_GE(report.files.size(), 3u);  // CSV, SVG, PNG, then any tables
  for (const auto& f : report.files) {
    EXPECT_TRUE(std::filesystem::exists(f)) << f;
    EXPECT_FALSE(std::filesystem::exists(f.string() + ".partial")) << f;
  }
  std::ifstream csv(report.files[0]);
  std::string header, line;
  std::getline(csv, header);
  // Convergence figures: method,frame,iter,time_ms,rel_error. Figures over time (10, 18): method,frame,
  // time_s,... with one column per quantity. Tables (Table I, the teaser): scene,vertices,... with empty
  // cells where the paper gives no value.
  const bool convergence = header == "method,frame,iter,time_ms,rel_error";
  const bool table = header.rfind("scene,vertices,", 0) == 0;
  if (!convergence && !table) {
    EXPECT_EQ(header.rfind("method,frame,time_s,frame_ms,min_det_f,inverted,rolled_back", 0), 0u) << header;
  }
  const size_t numbers = std::count(header.begin(), header.end(), ',');
  std::set<std::string> methods;
  while (std::getline(csv, line)) {
    std::stringstream row(line);
    std::vector<std::string> cells;
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (line.back() == ',') cells.push_back("");
    // The method label may hold commas (Fig. 15's "[0.5,1.5]"): the numbers are the last columns.
    ASSERT_GT(cells.size(), numbers) << line;
    const std::vector<std::string> values(cells.end() - numbers, cells.end());
    size_t label_end = line.size();
    for (size_t i = 0; i < numbers; ++i) label_end = line.rfind(',', label_end - 1);
    methods.insert(line.substr(0, label_end));
    for (const std::string& v : values) {
      if (table && v.empty()) continue;
      ASSERT_TRUE(std::isfinite(std::stod(v))) << line;
    }
    if (!convergence) continue;
    if (values[1] == "0") {
      EXPECT_EQ(std::stod(values[3]), 1.0) << line;
    }
    EXPECT_GE(std::stod(values[2]), 0.0) << line;
  }
  EXPECT_GE(methods.size(), convergence ? 2u : 1u);  // a comparison, or one run over time (Fig. 18) or per scene
}

std::vector<std::string> registeredExperiments() {
  std::vector<std::string> names;
  for (const Experiment& e : experiments()) names.push_back(e.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(All, QuickExperiment, ::testing::ValuesIn(registeredExperiments()));

TEST(PlotPng, DrawsTheSeriesInTheirColoursAndWritesAtomically) {
  plot::PlotSpec p{"title", "x", "y", {0, 10, false}, {0, 1, false}, {}, true};
  p.series.push_back({"red line", {1.0f, 0.0f, 0.0f}, {0, 10}, {0.5, 0.5}});
  const plot::Image image = plot::rasterizePlots({p}, "heading", 400, 300);
  ASSERT_EQ(image.width, 400);
  ASSERT_EQ(image.height, 300 + 36);
  int red = 0;
  for (size_t i = 0; i + 2 < image.rgb.size(); i += 3) red += image.rgb[i] > 200 && image.rgb[i + 1] < 60 && image.rgb[i + 2] < 60;
  EXPECT_GT(red, 250) << "a 2 px line across a 270 px wide frame, and its legend swatch";
  const auto path = test::scratchDir("png") / "plot.png";
  plot::writePng(image, path);
  EXPECT_GT(std::filesystem::file_size(path), 100u);
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".partial"));
  EXPECT_THROW(plot::writePng(image, test::scratchDir("png") / "missing_folder" / "plot.png"), Error);
}

}  // namespace
}  // namespace qnsim
