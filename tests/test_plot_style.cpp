// The picture files as a reader sees them: text that is text, a legend that hides no data, and methods
// that stay apart in print (plot/layout.h, plot/method_style.h, plot/font.h).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <tuple>

#include "plot/font.h"
#include "plot/layout.h"
#include "plot/method_style.h"
#include "plot/png.h"
#include "plot/svg.h"
#include "qnsim/parameters.h"

namespace qnsim::plot {
namespace {

// A convergence panel as the experiments draw it: each method's error falling by its own rate.
PlotSpec convergence(const std::vector<std::string>& labels, double start = 1.0) {
  PlotSpec p{"Relative error per iteration", "iteration", "relative error", {}, {}, {}, true};
  for (size_t m = 0; m < labels.size(); ++m) {
    Series s = methodSeries(labels[m], static_cast<int>(m));
    for (int k = 0; k <= 50; ++k) s.x.push_back(k), s.y.push_back(start * std::pow(10.0, -k * (0.05 + 0.02 * m)));
    p.series.push_back(std::move(s));
  }
  p.x = fitAxis(p.series, false, false);
  p.y = fitAxis(p.series, true, true);
  return p;
}

bool crossesData(const PlotSpec& p, const PanelLayout& l) {
  for (const Series& s : p.series)
    for (const auto& line : screenPolylines(p, l.frame, s))
      for (size_t k = 0; k + 1 < line.size(); ++k)
        for (int t = 0; t <= 20; ++t) {  // samples along each segment
          const Point q{line[k].x + t / 20.0 * (line[k + 1].x - line[k].x), line[k].y + t / 20.0 * (line[k + 1].y - line[k].y)};
          if (l.legend.contains(q)) return true;
        }
  return false;
}

TEST(PlotStyle, TheFontIsTrueTypeAndItsWidthsGrowWithTheText) {
  const Font& font = Font::sans();
  ASSERT_TRUE(font.isTrueType()) << "fonts-dejavu-core (tools/debian-packages.txt) is missing";
  EXPECT_GT(font.width("Newton", 10), font.width("PD", 10));
  EXPECT_NEAR(font.width("Newton", 20), 2 * font.width("Newton", 10), 1e-9);
  EXPECT_GT(font.width("M/h\u00b2 + L", 10), font.width("M/h + L", 10)) << "UTF-8 text has its own glyphs";
}

TEST(PlotStyle, SvgTextIsTextInTheFaceThePngDraws) {
  const std::string svg = svgPlots({convergence({"lbfgs_m5", "newton", "pd"})}, "Fig. 7");
  EXPECT_NE(svg.find("font-family='DejaVu Sans"), std::string::npos);
  for (const char* text : {">Fig. 7<", ">Relative error per iteration<", ">iteration<", ">relative error<", ">Ours (m = 5)<", ">Newton<", ">PD<"})
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos) << "PD is dashed";
  EXPECT_NE(svg.find("clip-path"), std::string::npos) << "curves stay inside their frame";
}

TEST(PlotStyle, TheLegendSitsInACornerNoCurveCrosses) {
  const PlotSpec p = convergence({"lbfgs_m1", "lbfgs_m2", "lbfgs_m5", "lbfgs_m10", "chebyshev", "pd", "newton"});
  const FigureLayout layout = layoutFigure({p}, "", 480, 300);
  const PanelLayout& l = layout.panels[0];
  ASSERT_GT(l.legend.w, 0);
  EXPECT_FALSE(l.legend_outside) << "the curves fall from the top left, leaving the top right empty";
  EXPECT_FALSE(crossesData(p, l));
}

TEST(PlotStyle, WithEveryCornerTakenTheLegendMovesBesideTheFrame) {
  PlotSpec p{"Noise", "x", "y", {0, 1, false}, {0, 1, false}, {}, true};
  Series zigzag = methodSeries("newton", 0);
  for (int k = 0; k <= 40; ++k) zigzag.x.push_back(k / 40.0), zigzag.y.push_back(k % 2);  // covers the whole frame
  p.series = {zigzag};
  const PanelLayout l = layoutFigure({p}, "", 480, 300).panels[0];
  EXPECT_TRUE(l.legend_outside);
  EXPECT_GE(l.legend.x, l.frame.left + l.frame.width);
  EXPECT_LE(l.legend.x + l.legend.w, 480.0);
  EXPECT_FALSE(crossesData(p, l));
}

// A legend beside the frame narrows the frame, not the title: the title is centred over both and keeps
// its size where it fits there.
TEST(PlotStyle, ALegendBesideTheFrameLeavesTheTitleItsSize) {
  PlotSpec p{"Relative error per iteration, twisting_bar, frame 4", "x", "y", {0, 1, false}, {0, 1, false}, {}, true};
  Series zigzag = methodSeries("frame_pcg15_ichol_rest", 0);
  for (int k = 0; k <= 40; ++k) zigzag.x.push_back(k / 40.0), zigzag.y.push_back(k % 2);
  p.series = {zigzag};
  const PanelLayout l = layoutFigure({p}, "", 480, 300).panels[0];
  ASSERT_TRUE(l.legend_outside);
  EXPECT_LT(fitTextSize(p.title, Typography::title, l.frame.width), Typography::title) << "the frame alone is too narrow";
  EXPECT_EQ(fitTextSize(p.title, Typography::title, l.title_width), Typography::title);
  EXPECT_DOUBLE_EQ(l.title_centre, 0.5 * (l.frame.left + l.legend.x + l.legend.w));
}

// Panels of the same methods side by side share one legend under the heading: each method once, inside
// the figure, above every panel, and no panel keeps a legend of its own.
TEST(PlotStyle, PanelsOfTheSameMethodsShareOneLegendAboveThem) {
  const PlotSpec a = convergence({"lbfgs_m5", "newton", "pd"}), b = convergence({"lbfgs_m5", "newton", "chebyshev"});
  const FigureLayout layout = layoutFigure({a, b, a}, "heading", 480, 300, {2, true});
  ASSERT_EQ(layout.panels.size(), 3u);
  EXPECT_DOUBLE_EQ(layout.width, 960);
  EXPECT_DOUBLE_EQ(layout.panels[1].panel.x, 480) << "the second panel beside the first";
  EXPECT_DOUBLE_EQ(layout.panels[2].panel.x, 0) << "the third starts the next row";
  EXPECT_DOUBLE_EQ(layout.panels[2].panel.y, layout.panels[0].panel.y + 300);
  EXPECT_DOUBLE_EQ(layout.height, layout.panels[2].panel.y + 300);
  std::set<std::string> labels;
  for (const LegendEntry& e : layout.legend_entries) labels.insert((e.panel == 1 ? b : a).series[e.series].label);
  EXPECT_EQ(labels, (std::set<std::string>{"Ours (m = 5)", "Newton", "PD", "Chebyshev"}));
  EXPECT_EQ(layout.legend_entries.size(), 4u) << "each method once";
  const Rect& l = layout.legend;
  EXPECT_GE(l.y, layout.heading_height);
  EXPECT_GE(l.x, 0);
  EXPECT_LE(l.x + l.w, layout.width);
  for (const LegendEntry& e : layout.legend_entries) EXPECT_TRUE(l.contains(e.at));
  for (const PanelLayout& p : layout.panels) {
    EXPECT_EQ(p.legend.w, 0) << "no legend of its own";
    EXPECT_GE(p.panel.y, l.y + l.h) << "the panels start below the legend";
  }
  const std::string svg = svgPlots({a, b, a}, "heading", 480, 300, {2, true});
  EXPECT_NE(svg.find("width='960'"), std::string::npos);
  EXPECT_NE(svg.find(">Chebyshev<"), std::string::npos);
  const Image image = rasterizePlots({a, b, a}, "heading", 480, 300, 1.0, {2, true});
  EXPECT_EQ(image.width, 960);
  EXPECT_EQ(image.height, static_cast<int>(std::lround(layout.height)));
}

TEST(PlotStyle, EveryMethodOfAFigureDiffersInDashOrSymbolAndKeepsItsLookAcrossFigures) {
  const std::vector<std::vector<std::string>> figures = {
      {"newton", "lbfgs_m1", "lbfgs_m2", "lbfgs_m5", "lbfgs_m10", "chebyshev", "pd"},
      {"laplacian", "scaled_identity", "rest_hessian", "warped_rest_hessian", "frame_hessian", "newton"},
      {"lbfgs_m5", "lbfgs_m5_cg15", "newton", "newton_cg5", "newton_cg15", "gast_cg"},
      {"lbfgs_m5", "newton", "pd", "chebyshev", "newton_abs", "vbd", "anderson", "jacobi", "admm"},
      {"lbfgs_m1", "lbfgs_m3", "lbfgs_m5", "lbfgs_m10", "pd", "newton", "gd", "chebyshev", "hecht", "pbd", "xpbd"},  // the Compare tab
      {"ours", "hecht_n2", "hecht_n1", "hecht_n2_ls"},
      {"a", "b", "c", "d", "e"}};  // unknown labels get distinct looks by index
  for (const auto& labels : figures) {
    std::set<std::pair<Dash, Marker>> looks;
    std::set<std::string> names;
    for (size_t m = 0; m < labels.size(); ++m) {
      const Series s = methodSeries(labels[m], static_cast<int>(m));
      looks.insert({s.dash, s.marker});
      names.insert(s.label);
      EXPECT_NE(s.marker, Marker::none) << labels[m];
    }
    EXPECT_EQ(looks.size(), labels.size()) << "two methods look alike in grey print: " << labels.front();
    EXPECT_EQ(names.size(), labels.size());
  }
  const Series first = methodSeries("newton", 0), later = methodSeries("newton", 5);
  EXPECT_EQ(std::tie(first.color.r, first.color.g, first.color.b, first.dash, first.marker),
            std::tie(later.color.r, later.color.g, later.color.b, later.dash, later.marker));
  EXPECT_EQ(methodName("lbfgs_m5"), "Ours (m = 5)");
  EXPECT_EQ(methodName("pd"), "PD");
  EXPECT_EQ(methodName("rest_hessian"), "Rest-pose Hessian");
  EXPECT_EQ(methodName("lbfgs_m5, wolfe"), "Ours (m = 5), strong Wolfe");
  EXPECT_EQ(methodName("lbfgs_m3, cg, ichol_a"), "Ours (m = 3), CG, ichol(M/h\u00b2 + L)");
  EXPECT_EQ(methodName("newton, sideways"), "Newton, sideways");  // an unknown setting as it is
  // Every setting the Compare tab varies reads as a reader names it, not as its key.
  for (const char* key : {"solver.initial_hessian", "solver.line_search", "solver.linear_solver", "solver.cg_preconditioner"})
    for (const std::string& choice : findParameter(key).choices) EXPECT_NE(settingsName(", " + choice), ", " + choice) << key;
  EXPECT_EQ(methodSeries("newton, cg", 3).color.r, first.color.r) << "a variant keeps its method's colour";
}

// In colour too: the methods of each of the paper's convergence figures (Figs. 7, 8, 10, 11, 12) and of
// the solvers' figure each have a colour of their own. (Variants of one method, such as Newton with and
// without CG in Fig. 16, share their method's colour by design.)
TEST(PlotStyle, TheMethodsOfAFigureHaveTheirOwnColours) {
  const std::vector<std::vector<std::string>> figures = {
      {"newton", "lbfgs_m1", "lbfgs_m2", "lbfgs_m5", "lbfgs_m10", "chebyshev", "pd"},
      {"laplacian", "scaled_identity", "rest_hessian", "warped_rest_hessian", "frame_hessian", "newton"},
      {"ours", "hecht_n2", "hecht_n1", "hecht_n2_ls"},
      {"polynomial/ours", "strain_limit/pd", "strain_limit/ours"},
      {"converged", "lbfgs_m5", "pd"},
      {"rest_hessian_1", "ours_1", "rest_hessian_2"},
      {"lbfgs_m5", "newton", "pd", "chebyshev", "newton_abs", "anderson", "jacobi", "admm", "vbd"}};
  for (const auto& labels : figures) {
    std::set<std::tuple<float, float, float>> colours;
    for (size_t m = 0; m < labels.size(); ++m) {
      const Series s = methodSeries(labels[m], static_cast<int>(m));
      colours.insert({s.color.r, s.color.g, s.color.b});
    }
    EXPECT_EQ(colours.size(), labels.size()) << "two methods share a colour in the figure of " << labels.front();
  }
}

TEST(PlotStyle, EqualCurvesShowTheirSymbolsApart) {
  std::vector<std::vector<Point>> line(1);  // a long series: 41 samples over 400 px
  for (int k = 0; k <= 40; ++k) line[0].push_back({10.0 * k, 0});
  const std::vector<Point> a = markerPoints(line, 0), b = markerPoints(line, 1);
  ASSERT_GE(a.size(), 8u);
  ASSERT_FALSE(b.empty());
  EXPECT_GT(std::abs(a[0].x - b[0].x), 2 * Typography::marker) << "the symbols of a curve drawn on another must not hide each other";
}

TEST(PlotStyle, ThePngIsAtPrintResolutionWithAntiAliasedText) {
  const Image image = rasterizePlots({convergence({"lbfgs_m5", "newton"})}, "", 480, 300);
  EXPECT_EQ(image.width, 3 * 480);
  EXPECT_EQ(image.height, 3 * 300);
  int greys = 0;  // text edges blend: pixels between the text's near-black and white
  for (size_t i = 0; i + 2 < image.rgb.size(); i += 3)
    greys += image.rgb[i] == image.rgb[i + 1] && image.rgb[i + 1] == image.rgb[i + 2] && image.rgb[i] > 60 && image.rgb[i] < 200;
  EXPECT_GT(greys, 2000);
}

}  // namespace
}  // namespace qnsim::plot
