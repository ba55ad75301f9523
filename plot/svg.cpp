#include "plot/svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace qnsim::plot {
namespace {

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

void axes(std::ostringstream& out, const PlotSpec& p, const PanelFrame& f) {
  out << "<rect x='" << f.left << "' y='" << f.top << "' width='" << f.width << "' height='" << f.height
      << "' fill='white' stroke='#444'/>\n";
  for (const Tick& t : ticks(p.x, 8)) {
    const double x = f.px(p.x, t.value);
    out << "<line x1='" << x << "' y1='" << f.top << "' x2='" << x << "' y2='" << f.top + f.height << "' stroke='"
        << (t.label.empty() ? "#f0f0f0" : "#dddddd") << "'/>\n";
    if (!t.label.empty())
      out << "<text x='" << x << "' y='" << f.top + f.height + 16 << "' text-anchor='middle'>" << t.label << "</text>\n";
  }
  for (const Tick& t : ticks(p.y, 6)) {
    const double y = f.py(p.y, t.value);
    out << "<line x1='" << f.left << "' y1='" << y << "' x2='" << f.left + f.width << "' y2='" << y << "' stroke='"
        << (t.label.empty() ? "#f0f0f0" : "#dddddd") << "'/>\n";
    if (!t.label.empty()) out << "<text x='" << f.left - 6 << "' y='" << y + 4 << "' text-anchor='end'>" << t.label << "</text>\n";
  }
  out << "<text x='" << f.left + f.width / 2 << "' y='" << f.top - 10 << "' text-anchor='middle' font-weight='bold'>" << escape(p.title)
      << "</text>\n";
  out << "<text x='" << f.left + f.width / 2 << "' y='" << f.top + f.height + 36 << "' text-anchor='middle'>" << escape(p.x_label)
      << "</text>\n";
  out << "<text transform='translate(" << f.left - 76 << "," << f.top + f.height / 2 << ") rotate(-90)' text-anchor='middle'>"
      << escape(p.y_label) << "</text>\n";
}

void series(std::ostringstream& out, const PlotSpec& p, const PanelFrame& f, const Series& s) {
  out << "<polyline fill='none' stroke='" << rgb(s.color) << "' stroke-width='1.6'" << (s.dashed ? " stroke-dasharray='6,4'" : "")
      << " points='";
  for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    const double ux = toUnit(p.x, s.x[i]), uy = toUnit(p.y, s.y[i]);
    if (!std::isfinite(ux) || !std::isfinite(uy)) continue;
    out << f.px(p.x, s.x[i]) << ',' << f.py(p.y, std::max(s.y[i], p.y.log ? p.y.lo : s.y[i])) << ' ';
  }
  out << "'/>\n";
}

void legend(std::ostringstream& out, const PlotSpec& p, const PanelFrame& f) {
  size_t longest = 0;  // long labels move the legend left; 12 px text is about 7 px per character
  for (const Series& s : p.series) longest = std::max(longest, s.label.size());
  const double x = f.left + f.width - std::max(170.0, 28 + 7.0 * static_cast<double>(longest) + 10);
  double y = f.top + 16;
  for (const Series& s : p.series) {
    if (s.label.empty()) continue;
    out << "<line x1='" << x << "' y1='" << y - 4 << "' x2='" << x + 22 << "' y2='" << y - 4 << "' stroke='" << rgb(s.color)
        << "' stroke-width='2.5'/>\n<text x='" << x + 28 << "' y='" << y << "'>" << escape(s.label) << "</text>\n";
    y += 16;
  }
}

}  // namespace

std::string svgPlots(const std::vector<PlotSpec>& panels, const std::string& heading, int width, int panel_height) {
  const int top = headingHeight(!heading.empty());
  std::ostringstream out;
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << top + panel_height * panels.size()
      << "' font-family='DejaVu Sans, Arial, sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='#fafafa'/>\n";
  if (!heading.empty()) out << "<text x='16' y='24' font-size='15' font-weight='bold'>" << escape(heading) << "</text>\n";
  for (size_t i = 0; i < panels.size(); ++i) {
    const PanelFrame f = panelFrame(static_cast<int>(i), width, panel_height, !heading.empty());
    axes(out, panels[i], f);
    for (const Series& s : panels[i].series) series(out, panels[i], f, s);
    if (panels[i].legend) legend(out, panels[i], f);
  }
  out << "</svg>\n";
  return out.str();
}

}  // namespace qnsim::plot
