#include "plot/svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "plot/layout.h"

namespace qnsim::plot {
namespace {

using T = Typography;

std::string rgb(const Color& c) {
  char text[32];
  std::snprintf(text, sizeof text, "rgb(%d,%d,%d)", int(c.r * 255), int(c.g * 255), int(c.b * 255));
  return text;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

// Text whose top (the font's ascent) is at y, as the PNG draws it: SVG places the baseline.
void text(std::ostringstream& out, double x, double y, double size, const std::string& s, const char* anchor, const char* extra = "") {
  out << "<text x='" << x << "' y='" << y + 0.93 * size << "' font-size='" << size << "' text-anchor='" << anchor << "'" << extra << ">"
      << escape(s) << "</text>\n";
}

void axes(std::ostringstream& out, const PlotSpec& p, const PanelLayout& l) {
  const PanelFrame& f = l.frame;
  out << "<rect x='" << f.left << "' y='" << f.top << "' width='" << f.width << "' height='" << f.height << "' fill='white'/>\n";
  for (const Tick& t : ticks(p.x, 8)) {
    const double x = f.px(p.x, t.value);
    out << "<line x1='" << x << "' y1='" << f.top << "' x2='" << x << "' y2='" << f.top + f.height << "' stroke='"
        << (t.label.empty() ? "#f2f2f2" : "#e0e0e0") << "'/>\n";
    if (!t.label.empty()) text(out, x, f.top + f.height + 4, T::tick, t.label, "middle");
  }
  for (const Tick& t : ticks(p.y, 6)) {
    const double y = f.py(p.y, t.value);
    out << "<line x1='" << f.left << "' y1='" << y << "' x2='" << f.left + f.width << "' y2='" << y << "' stroke='"
        << (t.label.empty() ? "#f2f2f2" : "#e0e0e0") << "'/>\n";
    if (!t.label.empty()) text(out, f.left - 5, y - 0.6 * T::tick, T::tick, t.label, "end");
  }
  out << "<rect x='" << f.left << "' y='" << f.top << "' width='" << f.width << "' height='" << f.height << "' fill='none' stroke='#333'/>\n";
  text(out, l.title_centre, f.top - 1.5 * T::title, fitTextSize(p.title, T::title, l.title_width), p.title, "middle", " font-weight='bold'");
  text(out, f.left + f.width / 2, f.top + f.height + 1.3 * T::tick + 6, T::label, p.x_label, "middle");
  out << "<text transform='translate(" << l.panel.x + 4 + 0.93 * T::label << "," << f.top + f.height / 2
      << ") rotate(-90)' font-size='" << T::label << "' text-anchor='middle'>" << escape(p.y_label) << "</text>\n";
}

void strokes(std::ostringstream& out, const Series& s, const std::vector<Point>& at) {
  if (s.marker == Marker::none || at.empty()) return;
  out << "<path fill='none' stroke='" << rgb(s.color) << "' stroke-width='1.1' d='";
  for (const Point& c : at)
    for (const auto& seg : markerStrokes(s.marker, c, T::marker)) out << 'M' << seg[0].x << ' ' << seg[0].y << 'L' << seg[1].x << ' ' << seg[1].y;
  out << "'/>\n";
}

std::string dashArray(Dash dash) {
  const std::vector<double> pattern = dashPattern(dash);
  if (pattern.empty()) return {};
  std::ostringstream out;
  out << " stroke-dasharray='";
  for (size_t i = 0; i < pattern.size(); ++i) out << (i ? "," : "") << pattern[i] * T::line;
  out << "'";
  return out.str();
}

void series(std::ostringstream& out, const PlotSpec& p, const PanelFrame& f, const Series& s, size_t index) {
  const auto lines = screenPolylines(p, f, s);
  for (const auto& line : lines) {
    out << "<polyline fill='none' stroke='" << rgb(s.color) << "' stroke-width='" << T::line << "'" << dashArray(s.dash) << " points='";
    for (const Point& q : line) out << q.x << ',' << q.y << ' ';
    out << "'/>\n";
    if (s.markers)
      for (const Point& q : line) out << "<circle cx='" << q.x << "' cy='" << q.y << "' r='2' fill='" << rgb(s.color) << "'/>\n";
  }
  strokes(out, s, markerPoints(lines, index));
}

void legend(std::ostringstream& out, const std::vector<PlotSpec>& panels, const Rect& box, const std::vector<LegendEntry>& entries) {
  if (box.w <= 0) return;
  out << "<rect x='" << box.x << "' y='" << box.y << "' width='" << box.w << "' height='" << box.h
      << "' fill='white' fill-opacity='0.9' stroke='#cccccc'/>\n";
  for (const LegendEntry& e : entries) {
    const Series& s = panels[e.panel].series[e.series];
    const double mid = e.at.y + 0.72 * T::legend, x = e.at.x;
    out << "<line x1='" << x << "' y1='" << mid << "' x2='" << x + T::swatch << "' y2='" << mid << "' stroke='" << rgb(s.color)
        << "' stroke-width='" << T::line << "'" << dashArray(s.dash) << "/>\n";
    strokes(out, s, {{x + 0.5 * T::swatch, mid}});
    text(out, x + T::swatch + 6, e.at.y, T::legend, s.label, "start");
  }
}

}  // namespace

std::string svgPlots(const std::vector<PlotSpec>& panels, const std::string& heading, int width, int panel_height, const FigureStyle& style) {
  const FigureLayout layout = layoutFigure(panels, heading, width, panel_height, style);
  std::ostringstream out;
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << layout.width << "' height='" << layout.height << "' viewBox='0 0 " << layout.width
      << ' ' << layout.height << "' font-family='DejaVu Sans, Verdana, sans-serif' fill='#1a1a1a'>\n<rect width='100%' height='100%' fill='white'/>\n";
  if (!heading.empty()) text(out, 10, 8, fitTextSize(heading, T::heading, layout.width - 20), heading, "start", " font-weight='bold'");
  legend(out, panels, layout.legend, layout.legend_entries);
  for (size_t i = 0; i < panels.size(); ++i) {
    const PanelLayout& l = layout.panels[i];
    const PanelFrame& f = l.frame;
    axes(out, panels[i], l);
    out << "<clipPath id='frame" << i << "'><rect x='" << f.left << "' y='" << f.top << "' width='" << f.width << "' height='" << f.height
        << "'/></clipPath>\n<g clip-path='url(#frame" << i << ")'>\n";
    for (size_t s = 0; s < panels[i].series.size(); ++s) series(out, panels[i], f, panels[i].series[s], s);
    out << "</g>\n";
    legend(out, panels, l.legend, l.legend_entries);
  }
  out << "</svg>\n";
  return out.str();
}

}  // namespace qnsim::plot
