#include "plot/layout.h"

#include <algorithm>
#include <cmath>

#include "plot/font.h"

namespace qnsim::plot {
namespace {

double textWidth(const std::string& s, double size) { return Font::sans().width(s, size); }

// Liang and Barsky's clip test: does the segment a-b enter the rectangle?
bool crosses(const Point& a, const Point& b, const Rect& r) {
  double t0 = 0, t1 = 1;
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double p[4] = {-dx, dx, -dy, dy}, q[4] = {a.x - r.x, r.x + r.w - a.x, a.y - r.y, r.y + r.h - a.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

// Does any of the panel's curves (as screenPolylines drew them) enter the box, or come within 3 px?
bool covers(const std::vector<std::vector<Point>>& lines, const Rect& box) {
  const Rect padded{box.x - 3, box.y - 3, box.w + 6, box.h + 6};
  for (const auto& line : lines) {
    if (line.size() == 1 && padded.contains(line[0])) return true;
    for (size_t k = 0; k + 1 < line.size(); ++k)
      if (crosses(line[k], line[k + 1], padded)) return true;
  }
  return false;
}

PanelFrame frameFor(const PlotSpec& p, const Rect& panel, double right_margin) {
  double widest_tick = 0;
  for (const Tick& t : ticks(p.y, 6)) widest_tick = std::max(widest_tick, textWidth(t.label, Typography::tick));
  const double left = (p.y_label.empty() ? 6 : 1.35 * Typography::label + 6) + widest_tick + 6;
  const double top = (p.title.empty() ? 8 : 1.5 * Typography::title + 4), bottom = 1.3 * Typography::tick + 6 + (p.x_label.empty() ? 0 : 1.4 * Typography::label);
  const std::vector<Tick> x_ticks = ticks(p.x, 8);  // the last label, centred on the frame's right edge, stays in the picture
  for (auto t = x_ticks.rbegin(); t != x_ticks.rend(); ++t)
    if (!t->label.empty()) {
      if (toUnit(p.x, t->value) > 0.98) right_margin = std::max(right_margin, 0.5 * textWidth(t->label, Typography::tick) + 4);
      break;
    }
  return {panel.x + left, panel.y + top, panel.w - left - right_margin, panel.h - top - bottom - 4};
}

// The frame and the legend: in a corner of the frame that no curve crosses, else beside the frame.
PanelLayout legendPlacement(const PlotSpec& p, size_t index, const Rect& panel, bool own_legend) {
  PanelLayout out;
  out.panel = panel;
  out.frame = frameFor(p, panel, 12);
  if (!p.legend || !own_legend) return out;
  double widest = 0;
  for (size_t i = 0; i < p.series.size(); ++i)
    if (!p.series[i].label.empty() && !p.series[i].x.empty()) {  // a series with nothing to show has no entry
      out.legend_entries.push_back({index, i, {}});
      widest = std::max(widest, textWidth(p.series[i].label, Typography::legend));
    }
  if (out.legend_entries.empty()) return out;
  const double w = 6 + Typography::swatch + 6 + widest + 8, h = Typography::legend_row * out.legend_entries.size() + 6;
  const PanelFrame& f = out.frame;
  std::vector<std::vector<Point>> lines;
  for (const Series& s : p.series)
    for (auto& line : screenPolylines(p, f, s)) lines.push_back(std::move(line));
  const double m = 6, right = f.left + f.width - w - m, bottom = f.top + f.height - h - m;
  for (const Point corner : {Point{right, f.top + m}, Point{f.left + m, f.top + m}, Point{right, bottom}, Point{f.left + m, bottom}}) {
    const Rect box{corner.x, corner.y, w, h};
    if (w + 2 * m <= f.width && h + 2 * m <= f.height && !covers(lines, box)) {
      out.legend = box;
      return out;
    }
  }
  out.frame = frameFor(p, panel, w + 18);  // every corner is taken: beside the frame
  out.legend = {out.frame.left + out.frame.width + 10, out.frame.top, w, h};
  out.legend_outside = true;
  return out;
}

// The title over the frame, or over the frame and a legend beside it; the legend's rows in its box.
PanelLayout layoutPanel(const PlotSpec& p, size_t index, const Rect& panel, bool own_legend) {
  PanelLayout out = legendPlacement(p, index, panel, own_legend);
  for (size_t row = 0; row < out.legend_entries.size(); ++row)
    out.legend_entries[row].at = {out.legend.x + 6, out.legend.y + 3 + row * Typography::legend_row};
  const double right = out.legend_outside ? out.legend.x + out.legend.w : out.frame.left + out.frame.width;
  out.title_centre = 0.5 * (out.frame.left + right);
  out.title_width = right - out.frame.left;
  return out;
}

// Series a reader could not tell apart in a legend: one entry serves both.
bool sameLook(const Series& a, const Series& b) {
  return a.label == b.label && a.color.r == b.color.r && a.color.g == b.color.g && a.color.b == b.color.b && a.dash == b.dash &&
         a.marker == b.marker && a.markers == b.markers;
}

// The shared legend under the heading: every labelled series with data once, in order of appearance, in
// as many columns as the figure's width holds, centred.
void layoutSharedLegend(const std::vector<PlotSpec>& panels, FigureLayout& out) {
  std::vector<LegendEntry> entries;
  double widest = 0;
  for (size_t i = 0; i < panels.size(); ++i)
    for (size_t k = 0; k < panels[i].series.size(); ++k) {
      const Series& s = panels[i].series[k];
      if (s.label.empty() || s.x.empty() || !panels[i].legend) continue;
      if (std::any_of(entries.begin(), entries.end(), [&](const LegendEntry& e) { return sameLook(panels[e.panel].series[e.series], s); })) continue;
      entries.push_back({i, k, {}});
      widest = std::max(widest, textWidth(s.label, Typography::legend));
    }
  if (entries.empty()) return;
  const double column = Typography::swatch + 6 + widest + 18, row = Typography::legend_row;
  const size_t columns = std::clamp<size_t>(static_cast<size_t>((out.width - 20) / column), 1, entries.size());
  const size_t rows = (entries.size() + columns - 1) / columns;
  out.legend = {0, out.heading_height + 4, columns * column + 6, rows * row + 6};
  out.legend.x = 0.5 * (out.width - out.legend.w);
  for (size_t e = 0; e < entries.size(); ++e)
    entries[e].at = {out.legend.x + 6 + (e % columns) * column, out.legend.y + 3 + (e / columns) * row};
  out.legend_entries = std::move(entries);
}

}  // namespace

double headingHeight(bool heading) { return heading ? 1.9 * Typography::heading + 6 : 0; }

FigureLayout layoutFigure(const std::vector<PlotSpec>& panels, const std::string& heading, int width, int panel_height, const FigureStyle& style) {
  FigureLayout out;
  const size_t columns = static_cast<size_t>(std::max(1, style.columns)), rows = (panels.size() + columns - 1) / columns;
  out.heading_height = headingHeight(!heading.empty());
  out.width = static_cast<double>(width * columns);
  if (style.shared_legend) layoutSharedLegend(panels, out);
  const double top = out.heading_height + (out.legend.w > 0 ? out.legend.h + 10 : 0);
  out.height = top + panel_height * static_cast<double>(rows);
  for (size_t i = 0; i < panels.size(); ++i) {
    const Rect panel{double(width * (i % columns)), top + panel_height * static_cast<double>(i / columns), double(width), double(panel_height)};
    out.panels.push_back(layoutPanel(panels[i], i, panel, !style.shared_legend));
  }
  return out;
}

std::vector<std::vector<Point>> screenPolylines(const PlotSpec& p, const PanelFrame& f, const Series& s) {
  std::vector<std::vector<Point>> out(1);
  for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    // A negative value has no place on a log axis; zero and small ones sit on its low end.
    if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i]) || (p.x.log && s.x[i] < 0) || (p.y.log && s.y[i] < 0)) {
      if (!out.back().empty()) out.emplace_back();
      continue;
    }
    const double x = p.x.log ? std::max(s.x[i], p.x.lo) : s.x[i], y = p.y.log ? std::max(s.y[i], p.y.lo) : s.y[i];
    out.back().push_back({f.px(p.x, x), f.py(p.y, y)});
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

std::vector<Point> markerPoints(const std::vector<std::vector<Point>>& lines, size_t series_index) {
  constexpr double kSpacing = 36;
  size_t samples = 0;
  for (const auto& line : lines) samples += line.size();
  if (samples <= 16) {
    std::vector<Point> out;
    for (const auto& line : lines) out.insert(out.end(), line.begin(), line.end());
    return out;
  }
  std::vector<Point> out;
  // Offsets by the golden ratio's fraction: neighbouring series (often the ones that coincide) land far apart.
  const double offset = static_cast<double>(series_index) * 0.6180339887;
  double next = 4 + kSpacing * (offset - std::floor(offset)), travelled = 0;
  for (const auto& line : lines)
    for (size_t k = 0; k + 1 < line.size(); ++k) {
      const double length = std::hypot(line[k + 1].x - line[k].x, line[k + 1].y - line[k].y);
      while (next <= travelled + length) {
        const double t = length > 0 ? (next - travelled) / length : 0;
        out.push_back({line[k].x + t * (line[k + 1].x - line[k].x), line[k].y + t * (line[k + 1].y - line[k].y)});
        next += kSpacing;
      }
      travelled += length;
    }
  return out;
}

std::vector<std::array<Point, 2>> dashSegments(const std::vector<Point>& line, Dash dash, double unit) {
  const std::vector<double> pattern = dashPattern(dash);
  std::vector<std::array<Point, 2>> out;
  size_t piece = 0;
  double left_in_piece = pattern.empty() ? INFINITY : pattern[0] * unit;
  for (size_t k = 0; k + 1 < line.size(); ++k) {
    Point a = line[k];
    const Point b = line[k + 1];
    double remaining = std::hypot(b.x - a.x, b.y - a.y);
    while (remaining > 0) {
      const double step = std::min(remaining, left_in_piece), t = step / remaining;
      const Point c{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
      if (piece % 2 == 0) out.push_back({a, c});
      a = c, remaining -= step, left_in_piece -= step;
      if (left_in_piece <= 0) piece = (piece + 1) % pattern.size(), left_in_piece = pattern[piece] * unit;
    }
  }
  return out;
}

std::vector<std::array<Point, 2>> markerStrokes(Marker marker, Point c, double r) {
  std::vector<Point> outline;
  const auto polygon = [&](int sides, double start_degrees, double radius) {
    for (int i = 0; i < sides; ++i) {
      const double a = (start_degrees + 360.0 * i / sides) * M_PI / 180;
      outline.push_back({c.x + radius * std::cos(a), c.y - radius * std::sin(a)});
    }
  };
  switch (marker) {
    case Marker::none: return {};
    case Marker::circle: polygon(16, 0, r); break;
    case Marker::square: polygon(4, 45, r * 1.25); break;
    case Marker::diamond: polygon(4, 90, r * 1.3); break;
    case Marker::triangle: polygon(3, 90, r * 1.35); break;
    case Marker::triangle_down: polygon(3, 270, r * 1.35); break;
    case Marker::cross: return {{{{c.x - r, c.y - r}, {c.x + r, c.y + r}}}, {{{c.x - r, c.y + r}, {c.x + r, c.y - r}}}};
    case Marker::plus: return {{{{c.x - 1.2 * r, c.y}, {c.x + 1.2 * r, c.y}}}, {{{c.x, c.y - 1.2 * r}, {c.x, c.y + 1.2 * r}}}};
  }
  std::vector<std::array<Point, 2>> strokes;
  for (size_t i = 0; i < outline.size(); ++i) strokes.push_back({outline[i], outline[(i + 1) % outline.size()]});
  return strokes;
}

double fitTextSize(const std::string& text, double size, double width) {
  const double w = textWidth(text, size);
  return w <= width ? size : std::max(7.0, size * width / w);
}

}  // namespace qnsim::plot
