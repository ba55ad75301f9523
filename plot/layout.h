#pragma once
// Where the parts of a figure go, in logical pixels (y down), shared by the SVG and the PNG pictures so
// that both show the same figure: panels in rows under an optional heading, each panel's data frame
// inside margins sized from its labels, and its legend in a corner of the frame that no curve crosses,
// or to the right of the frame when every corner is taken; or one legend for all panels under the heading.
#include <array>
#include <string>
#include <vector>

#include "plot/axes.h"

namespace qnsim::plot {

// Text sizes (em, logical pixels) and line widths of the picture files.
struct Typography {
  static constexpr double heading = 13, title = 11.5, label = 11, tick = 10, legend = 10;
  static constexpr double line = 1.5, marker = 3.5, swatch = 28;
  static constexpr double legend_row = 1.45 * legend;  // a legend's rows, top to top
};

struct Point {
  double x, y;
};

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
  bool contains(const Point& p) const { return p.x >= x && p.x <= x + w && p.y >= y && p.y <= y + h; }
};

struct PanelFrame {
  double left, top, width, height;
  double px(const Axis& a, double v) const { return left + toUnit(a, v) * width; }
  double py(const Axis& a, double v) const { return top + (1.0 - toUnit(a, v)) * height; }
};

// One row of a legend: a panel's series, its swatch and label drawn from `at` (the row's top left).
struct LegendEntry {
  size_t panel, series;
  Point at;
};

struct PanelLayout {
  Rect panel;                  // the panel's share of the figure
  PanelFrame frame;            // where the data is drawn
  Rect legend;                 // empty (w = 0) without a legend
  bool legend_outside = false;
  std::vector<LegendEntry> legend_entries;  // its rows, top to bottom
  // The panel's title is centred over the frame, or over the frame and a legend beside it, so that a
  // legend outside does not shrink the title's text.
  double title_centre = 0, title_width = 0;
};

struct FigureLayout {
  double width = 0, height = 0, heading_height = 0;
  std::vector<PanelLayout> panels;
  Rect legend;                              // the shared legend; empty (w = 0) without one
  std::vector<LegendEntry> legend_entries;  // its rows, left to right and then down
};

FigureLayout layoutFigure(const std::vector<PlotSpec>& panels, const std::string& heading, int width, int panel_height,
                          const FigureStyle& style = {});
double headingHeight(bool heading);

// A series as polylines on the panel (split where a value is missing or negative on a log axis; zero
// and values past a log axis' low end sit on that end).
std::vector<std::vector<Point>> screenPolylines(const PlotSpec& p, const PanelFrame& f, const Series& s);

// Where a series' symbols go: on every sample of a short series, else every so many pixels along the
// curve, started at an offset that differs per series so that equal curves show their symbols apart.
std::vector<Point> markerPoints(const std::vector<std::vector<Point>>& lines, size_t series_index);

// The drawn pieces of a polyline stroked with a dash pattern (dashPattern's lengths times `unit`, the
// line's width), the pattern running on across the vertices; every segment for a solid line.
std::vector<std::array<Point, 2>> dashSegments(const std::vector<Point>& line, Dash dash, double unit);

// The strokes of a symbol centred at c with radius r, as pairs of end points (a closed outline for the
// shapes, two bars for the cross and the plus).
std::vector<std::array<Point, 2>> markerStrokes(Marker marker, Point c, double r);

// The largest text size, at most `size`, at which `text` fits `width` (never below 7).
double fitTextSize(const std::string& text, double size, double width);

}  // namespace qnsim::plot
