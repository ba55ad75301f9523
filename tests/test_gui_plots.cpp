// Plot logic of the sandbox (shared by the live panels and the SVG export): axis ranges, ticks,
// log scale, mapping, labels and decimation.
#include <gtest/gtest.h>

#include <cmath>

#include "plot/axes.h"
#include "plot/svg.h"

namespace qnsim::plot {
namespace {

std::vector<double> labelled(const std::vector<Tick>& ticks) {
  std::vector<double> out;
  for (const Tick& t : ticks)
    if (!t.label.empty()) out.push_back(t.value);
  return out;
}

TEST(GuiPlots, LinearTicksAreNiceNumbersInsideTheAxis) {
  const auto t = ticks({0.0, 1.0, false}, 5);
  EXPECT_EQ(labelled(t), (std::vector<double>{0.0, 0.2, 0.4, 0.6, 0.8, 1.0}));
  EXPECT_EQ(t[1].label, "0.2");
  const auto wide = labelled(ticks({-3.0, 1234.0, false}, 6));
  EXPECT_EQ(wide.front(), 0.0);
  EXPECT_EQ(wide[1], 500.0);
  for (double v : labelled(ticks({0.013, 0.0171, false}, 4))) EXPECT_TRUE(v >= 0.013 && v <= 0.0171);
}

TEST(GuiPlots, LogTicksAreDecadesWithMinorTicksAndThinnedLabels) {
  const auto t = ticks({1e-4, 1.0, true}, 10);
  EXPECT_EQ(labelled(t), (std::vector<double>{1e-4, 1e-3, 1e-2, 1e-1, 1.0}));
  EXPECT_EQ(t.front().label, "0.0001");
  EXPECT_GT(t.size(), 30u);  // 2..9 in each decade
  const auto many = labelled(ticks({1e-12, 1e3, true}, 5));
  EXPECT_LE(many.size(), 6u);
  EXPECT_EQ(many.front(), 1e-12);
  // Less than a decade: linear labels placed on the log scale.
  const auto narrow = labelled(ticks({1450.0, 1600.0, true}, 4));
  ASSERT_FALSE(narrow.empty());
  for (double v : narrow) EXPECT_TRUE(v >= 1450 && v <= 1600);
}

TEST(GuiPlots, FitAxisCoversTheDataAndSkipsWhatALogAxisCannotShow) {
  std::vector<Series> s{{"a", seriesColor(0), {0, 1, 2, 3}, {1.0, 3e-5, 0.0, NAN}}};
  const Axis y = fitAxis(s, true, true);
  EXPECT_DOUBLE_EQ(y.lo, 1e-5);
  EXPECT_DOUBLE_EQ(y.hi, 1.0);
  const Axis x = fitAxis(s, false, false);
  EXPECT_LT(x.lo, 0.0);
  EXPECT_GT(x.hi, 3.0);
  const Axis empty = fitAxis({}, true, true);
  EXPECT_LT(empty.lo, empty.hi);
  const Axis flat = fitAxis({{"c", seriesColor(1), {0, 1}, {5, 5}}}, true, false);
  EXPECT_LT(flat.lo, 5.0);
  EXPECT_GT(flat.hi, 5.0);
  Axis grow{1e-3, 1.0, true};
  include(grow, 30.0);
  EXPECT_DOUBLE_EQ(grow.hi, 100.0);
}

TEST(GuiPlots, UnitMappingInvertsAndLogAxesAreLogarithmic) {
  const Axis lin{-2.0, 6.0, false}, log{1e-3, 10.0, true};
  EXPECT_DOUBLE_EQ(toUnit(lin, 2.0), 0.5);
  EXPECT_NEAR(fromUnit(lin, toUnit(lin, 4.25)), 4.25, 1e-12);
  EXPECT_NEAR(toUnit(log, 0.1), 0.5, 1e-12);
  EXPECT_NEAR(fromUnit(log, toUnit(log, 0.037)), 0.037, 1e-12);
  EXPECT_TRUE(std::isinf(toUnit(log, 0.0)));  // drawn as a gap
}

TEST(GuiPlots, TickLabelsAreShort) {
  EXPECT_EQ(formatTick(0.0, 0.1), "0");
  EXPECT_EQ(formatTick(2.5, 0.5), "2.5");
  EXPECT_EQ(formatTick(40.0, 10.0), "40");
  EXPECT_EQ(formatTick(1e-6, 1e-6), "1e-06");
  EXPECT_EQ(formatTick(250000.0, 50000.0), "2.5e+05");
}

TEST(GuiPlots, DecimationKeepsSpikesAndBoundsThePointCount) {
  std::vector<double> x, y;
  for (int i = 0; i < 10000; ++i) {
    x.push_back(i);
    y.push_back(i == 5003 ? 100.0 : std::sin(i * 0.01));
  }
  std::vector<double> dx, dy;
  decimate(x, y, 400, dx, dy);
  EXPECT_LE(dx.size(), 400u);
  EXPECT_EQ(*std::max_element(dy.begin(), dy.end()), 100.0);
  decimate({1, 2}, {3, 4}, 400, dx, dy);
  EXPECT_EQ(dy, (std::vector<double>{3, 4}));
}

TEST(GuiPlots, SvgHasTitleLabelsLegendAndAPolylinePerSeries) {
  PlotSpec p{"Convergence <test>", "iteration", "error", {0, 10, false}, {1e-6, 1, true}, {}, true};
  p.series.push_back({"QN m=5", seriesColor(0), {0, 5, 10}, {1, 1e-3, 1e-5}});
  p.series.push_back({"PD", seriesColor(1), {0, 5, 10}, {1, 1e-1, 1e-2}, Dash::dashed});
  const std::string svg = svgPlots({p, p}, "heading");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("Convergence &lt;test&gt;"), std::string::npos);
  EXPECT_NE(svg.find(">iteration<"), std::string::npos);
  EXPECT_NE(svg.find(">QN m=5<"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
  size_t polylines = 0;
  for (size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++polylines;
  EXPECT_EQ(polylines, 4u);
}

}  // namespace
}  // namespace qnsim::plot
