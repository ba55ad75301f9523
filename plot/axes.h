#pragma once
// Plot data and axis maths shared by the live ImGui plots and the SVG export: ranges that cover the
// data (whole decades on log axes), "nice" ticks (1, 2, 5 x 10^k), and value <-> [0, 1] mapping.
#include <string>
#include <vector>

namespace qnsim::plot {

struct Axis {
  double lo = 0.0, hi = 1.0;
  bool log = false;
};

struct Tick {
  double value;
  std::string label;  // empty for minor ticks
};

struct Color {
  float r, g, b;
};

// Okabe and Ito's colour-blind-safe colours, with grey, brown and violet: every plot's palette.
namespace palette {
constexpr Color vermillion{0.84f, 0.37f, 0.00f}, black{0.10f, 0.10f, 0.10f}, blue{0.00f, 0.45f, 0.70f}, green{0.00f, 0.62f, 0.45f},
    sky{0.34f, 0.71f, 0.91f}, purple{0.80f, 0.47f, 0.65f}, orange{0.90f, 0.62f, 0.00f}, grey{0.50f, 0.50f, 0.50f},
    brown{0.55f, 0.35f, 0.15f}, violet{0.42f, 0.27f, 0.65f};
}  // namespace palette

// How a curve is stroked and marked, so that curves lying on one another stay apart in print.
enum class Dash { solid, dashed, dotted, dash_dot, long_dash };
enum class Marker { none, circle, square, triangle, triangle_down, diamond, cross, plus };

struct Series {
  std::string label;
  Color color;
  std::vector<double> x, y;
  Dash dash = Dash::solid;
  bool markers = false;          // a dot at each sample (short series: control points, trials)
  Marker marker = Marker::none;  // a symbol at the samples of a short series, spaced along a long one
};

struct PlotSpec {
  std::string title, x_label, y_label;
  Axis x, y;
  std::vector<Series> series;
  bool legend = true;
};

// How a figure arranges its panels.
struct FigureStyle {
  int columns = 1;             // panels side by side, filled row by row; each column `width` wide
  bool shared_legend = false;  // one legend under the heading, each series of every panel once (by label
                               // and look), none in the panels: for panels that plot the same methods
};

// An axis covering the finite values of every series' x (or y); on a log axis only positive values
// count and the ends snap to whole decades. Never empty.
Axis fitAxis(const std::vector<Series>& series, bool use_y, bool log);
// Widens `axis` to include a value (for fixed marks such as a fitted line's interval).
void include(Axis& axis, double value);

// Ticks inside the axis: at most about max_labels labelled ticks; log axes add unlabelled 2..9 minor
// ticks when they span few decades.
std::vector<Tick> ticks(const Axis& axis, int max_labels);

// Position of a value along the axis: 0 at lo, 1 at hi (log10 on log axes; non-positive -> -inf).
double toUnit(const Axis& axis, double value);
double fromUnit(const Axis& axis, double unit);

// A short label: "0.25", "1e-06", "3.5e+04".
std::string formatTick(double value, double step);

// Keeps at most about `target` points, picking min and max per bucket so that spikes survive.
void decimate(const std::vector<double>& x, const std::vector<double>& y, int target, std::vector<double>& out_x,
              std::vector<double>& out_y);

// A colour per series index, readable on dark and light backgrounds.
Color seriesColor(int index);

// On, off lengths of a dash pattern in multiples of the line width; empty for a solid line.
std::vector<double> dashPattern(Dash dash);

}  // namespace qnsim::plot
