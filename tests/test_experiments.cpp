// `qnsim experiment`: every figure runs at CI size and writes its CSV (the documented columns, one
// curve per method starting from relative error 1; per-frame quantities over time; table rows), SVG
// and PNG; the PNG rasteriser draws what it is given.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "experiments/convergence.h"
#include "experiments/experiment.h"
#include "plot/layout.h"
#include "plot/mesh_picture.h"
#include "plot/png.h"
#include "qnsim/error.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

class QuickExperiment : public ::testing::TestWithParam<std::string> {};

TEST_P(QuickExperiment, WritesItsFiguresAndAComparisonWithThePaper) {
  const auto dir = test::scratchDir("experiment_" + GetParam());
  const ExperimentReport report = findExperiment(GetParam()).run({dir, true, {}, {}});
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
  // Measurements against theory (validation): quantity,... rows; Table I's errors per frame
  // (table1_errors): scene/run/protocol,frame,... rows; both treated as tables.
  const bool table = header.rfind("scene,vertices,", 0) == 0 || header.rfind("quantity,", 0) == 0 ||
                     header.rfind("scene/run/protocol,frame,", 0) == 0;
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
    // A method that starts at its own initial guess (the solvers experiment's *_guess) is measured from
    // g(y), where the others start (Eq. 12), so its first iterate need not be at 1.
    const std::string label = line.substr(0, label_end);
    if (values[1] == "0" && !label.ends_with("_guess")) {
      EXPECT_EQ(std::stod(values[3]), 1.0) << line;
    }
    EXPECT_GE(std::stod(values[2]), 0.0) << line;
  }
  EXPECT_GE(methods.size(), convergence ? 2u : 1u);  // a comparison, or one run over time (Fig. 18) or per scene
  if (GetParam() == "table1_errors") {  // Newton on its own trajectory: a row of measured errors beside ours'
    EXPECT_TRUE(methods.contains("thin_sheet/as in the catalog/Newton on its own trajectory"));
    EXPECT_NE(report.summary.find("| thin_sheet | as in the catalog | "), std::string::npos);
  }
}

std::vector<std::string> registeredExperiments() {
  std::vector<std::string> names;
  for (const Experiment& e : experiments()) names.push_back(e.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(All, QuickExperiment, ::testing::ValuesIn(registeredExperiments()));

// The table the documents quote: each method under the paper's name, its error after 10 iterations,
// its last iterate, and the first iterate at or below the threshold with that iterate's time.
TEST(ConvergenceTable, GivesEachMethodsErrorsAndWhenItFirstReachesTheThreshold) {
  const auto result = [](const std::string& label, std::vector<double> errors) {
    MethodResult r{{label, {}}, {}};
    r.trace.rel_error = errors;
    for (size_t k = 0; k < errors.size(); ++k) r.trace.result.iterations.push_back({static_cast<int>(k), 0, 0, 0, 0, 2.5 * k});
    return r;
  };
  std::vector<double> ours(12), newton = {1.0, 1e-3, 1e-9};
  for (size_t k = 0; k < ours.size(); ++k) ours[k] = std::pow(10.0, -static_cast<double>(k));
  const std::string table = convergenceMarkdown({result("lbfgs_m5", ours), result("newton", newton), result("pd", {1.0, 0.5})});
  EXPECT_NE(table.find("| Ours (m = 5) | 1e-10 | 1e-11 (11, 27.5 ms) | 5, 12.5 ms |"), std::string::npos) << table;
  EXPECT_NE(table.find("| Newton | - | 1e-09 (2, 5.0 ms) | 2, 5.0 ms |"), std::string::npos) << table;
  EXPECT_NE(table.find("| PD | - | 0.5 (1, 2.5 ms) | not reached |"), std::string::npos) << table;
}

// --scenes: table1 measures the scenes named and no other.
TEST(ExperimentScenes, Table1MeasuresOnlyTheScenesNamed) {
  const auto dir = test::scratchDir("experiment_table1_scenes");
  findExperiment("table1").run({dir, true, {}, {"thin_sheet"}});
  std::ifstream in(dir / "table1.md");
  const std::string table((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(table.find("| thin_sheet |"), std::string::npos);
  EXPECT_EQ(table.find("| shaking_bar |"), std::string::npos);
  EXPECT_EQ(table.find("| sphere_spline_a |"), std::string::npos);
}

TEST(PlotPng, DrawsTheSeriesInTheirColoursAndWritesAtomically) {
  plot::PlotSpec p{"title", "x", "y", {0, 10, false}, {0, 1, false}, {}, true};
  p.series.push_back({"red line", {1.0f, 0.0f, 0.0f}, {0, 10}, {0.5, 0.5}});
  const plot::Image image = plot::rasterizePlots({p}, "heading", 400, 300);
  ASSERT_EQ(image.width, 3 * 400);  // at print resolution, 3 pixels per logical pixel
  ASSERT_EQ(image.height, 3 * std::lround(300 + plot::headingHeight(true)));
  int red = 0;
  for (size_t i = 0; i + 2 < image.rgb.size(); i += 3) red += image.rgb[i] > 200 && image.rgb[i + 1] < 60 && image.rgb[i + 2] < 60;
  EXPECT_GT(red, 9 * 250) << "a 1.5 px line across a 300 px wide frame, and its legend swatch, at 3x";
  const auto path = test::scratchDir("png") / "plot.png";
  plot::writePng(image, path);
  EXPECT_GT(std::filesystem::file_size(path), 100u);
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".partial"));
  EXPECT_THROW(plot::writePng(image, test::scratchDir("png") / "missing_folder" / "plot.png"), Error);
}

// The colour of the middle pixel of panel `panel` (420 px square, below a heading and a label).
std::array<int, 3> centre(const plot::Image& image, int panel) {
  const int x = 420 * panel + 210, y = image.height - 210;
  const unsigned char* p = &image.rgb[3 * (static_cast<size_t>(y) * image.width + x)];
  return {p[0], p[1], p[2]};
}

TEST(MeshPicture, DrawsTheFacingSideBlueTheBackOrangeTheNearestSurfaceOnTopAndRigidBodiesGrey) {
  // A square in the z = 0 plane, facing +z (towards the camera), and the same square turned away.
  plot::MeshPicture front{"front", {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0}, {0, 1, 2, 0, 2, 3}};
  plot::MeshPicture back = front;
  back.label = "back";
  back.triangles = {0, 2, 1, 0, 3, 2};
  // Two squares: the far one turned away, the near one (z = 0.5) facing: the near one shows.
  plot::MeshPicture both{"both", front.positions, {4, 5, 6, 4, 6, 7, 0, 2, 1, 0, 3, 2}};  // the near one drawn first
  for (double v : {-1.0, -1.0, 0.5, 1.0, -1.0, 0.5, 1.0, 1.0, 0.5, -1.0, 1.0, 0.5}) both.positions.push_back(v);
  const plot::Image image = plot::renderMeshes({front, back, both}, {{0, 0, 5}, {0, 0, 0}, 45}, "test");
  ASSERT_EQ(image.width, 3 * 420);
  for (int panel : {0, 2}) {
    const auto c = centre(image, panel);
    EXPECT_GT(c[2], c[0] + 40) << "blue, panel " << panel;
  }
  const auto c = centre(image, 1);
  EXPECT_GT(c[0], c[2] + 40) << "orange";
  // The same squares as rigid colliders (first_rigid = 0): grey from either side.
  for (plot::MeshPicture* m : {&front, &back}) m->first_rigid = 0;
  const plot::Image rigid = plot::renderMeshes({front, back}, {{0, 0, 5}, {0, 0, 0}, 45}, "test");
  for (int panel : {0, 1}) {
    const auto g = centre(rigid, panel);
    EXPECT_LE(std::max({g[0], g[1], g[2]}) - std::min({g[0], g[1], g[2]}), 8) << "grey, panel " << panel;
    EXPECT_GT(g[0], 60) << "lit, panel " << panel;
  }
}

}  // namespace
}  // namespace qnsim
