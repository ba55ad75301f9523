#include "plot/png.h"

#include <stb_image_write.h>

#include <algorithm>
#include <cmath>

#include "core/common/files.h"
#include "plot/canvas.h"
#include "plot/layout.h"
#include "qnsim/error.h"

namespace qnsim::plot {
namespace {

using T = Typography;

void centred(Canvas& canvas, double x, double y, const std::string& s, double size) { canvas.text(x - Canvas::textWidth(s, size) / 2, y, s, kText, size); }

void drawAxes(Canvas& canvas, const PlotSpec& p, const PanelLayout& l) {
  const PanelFrame& f = l.frame;
  canvas.fill(f.left, f.top, f.left + f.width, f.top + f.height, kWhite);
  for (const Tick& t : ticks(p.x, 8)) {
    const double x = f.px(p.x, t.value);
    canvas.line(x, f.top, x, f.top + f.height, t.label.empty() ? kMinorGrid : kGrid, 0.6);
    if (!t.label.empty()) centred(canvas, x, f.top + f.height + 4, t.label, T::tick);
  }
  for (const Tick& t : ticks(p.y, 6)) {
    const double y = f.py(p.y, t.value);
    canvas.line(f.left, y, f.left + f.width, y, t.label.empty() ? kMinorGrid : kGrid, 0.6);
    if (!t.label.empty()) canvas.text(f.left - 5 - Canvas::textWidth(t.label, T::tick), y - 0.6 * T::tick, t.label, kText, T::tick);
  }
  const double right = f.left + f.width, bottom = f.top + f.height;
  for (const auto& [x0, y0, x1, y1] : {std::array{f.left, f.top, right, f.top}, std::array{f.left, bottom, right, bottom},
                                       std::array{f.left, f.top, f.left, bottom}, std::array{right, f.top, right, bottom}})
    canvas.line(x0, y0, x1, y1, kFrame, 0.8);
  centred(canvas, l.title_centre, f.top - 1.5 * T::title, p.title, fitTextSize(p.title, T::title, l.title_width));
  centred(canvas, f.left + f.width / 2, f.top + f.height + 1.3 * T::tick + 6, p.x_label, T::label);
  canvas.text(l.panel.x + 4, f.top + (f.height + Canvas::textWidth(p.y_label, T::label)) / 2, p.y_label, kText, T::label, true);
}

void drawMarkers(Canvas& canvas, const Series& s, const std::vector<Point>& at) {
  if (s.marker == Marker::none) return;
  for (const Point& c : at) {
    canvas.fill(c.x - 0.8 * T::marker, c.y - 0.8 * T::marker, c.x + 0.8 * T::marker, c.y + 0.8 * T::marker, kWhite);  // open symbols
    for (const auto& seg : markerStrokes(s.marker, c, T::marker)) canvas.line(seg[0].x, seg[0].y, seg[1].x, seg[1].y, s.color, 1.1);
  }
}

void drawLine(Canvas& canvas, const std::vector<Point>& line, const Series& s) {
  for (const auto& [a, b] : dashSegments(line, s.dash, T::line)) canvas.line(a.x, a.y, b.x, b.y, s.color, T::line);
}

void drawSeries(Canvas& canvas, const PlotSpec& p, const PanelFrame& f, const Series& s, size_t index) {
  const auto lines = screenPolylines(p, f, s);
  for (const auto& line : lines) {
    drawLine(canvas, line, s);
    if (s.markers)
      for (const Point& q : line) canvas.line(q.x, q.y, q.x, q.y, s.color, 4.0);
  }
  drawMarkers(canvas, s, markerPoints(lines, index));
}

void drawLegend(Canvas& canvas, const std::vector<PlotSpec>& panels, const Rect& r, const std::vector<LegendEntry>& entries) {
  if (r.w <= 0) return;
  canvas.fill(r.x, r.y, r.x + r.w, r.y + r.h, kWhite);
  for (const auto& [x0, y0, x1, y1] : {std::array{r.x, r.y, r.x + r.w, r.y}, std::array{r.x, r.y + r.h, r.x + r.w, r.y + r.h},
                                       std::array{r.x, r.y, r.x, r.y + r.h}, std::array{r.x + r.w, r.y, r.x + r.w, r.y + r.h}})
    canvas.line(x0, y0, x1, y1, {0.8f, 0.8f, 0.8f}, 0.6);
  for (const LegendEntry& e : entries) {
    const Series& s = panels[e.panel].series[e.series];
    const double mid = e.at.y + 0.72 * T::legend, x = e.at.x;
    drawLine(canvas, {{x, mid}, {x + T::swatch, mid}}, s);
    drawMarkers(canvas, s, {{x + 0.5 * T::swatch, mid}});
    canvas.text(x + T::swatch + 6, e.at.y, s.label, kText, T::legend);
  }
}

}  // namespace

Image rasterizePlots(const std::vector<PlotSpec>& panels, const std::string& heading, int width, int panel_height, double scale,
                     const FigureStyle& style) {
  const FigureLayout layout = layoutFigure(panels, heading, width, panel_height, style);
  Canvas canvas(static_cast<int>(std::lround(layout.width)), static_cast<int>(std::lround(layout.height)), scale);
  if (!heading.empty()) canvas.text(10, 8, heading, kText, fitTextSize(heading, T::heading, layout.width - 20));
  drawLegend(canvas, panels, layout.legend, layout.legend_entries);
  for (size_t i = 0; i < panels.size(); ++i) {
    const PanelLayout& l = layout.panels[i];
    drawAxes(canvas, panels[i], l);
    canvas.clip(l.frame.left, l.frame.top, l.frame.left + l.frame.width, l.frame.top + l.frame.height);
    for (size_t s = 0; s < panels[i].series.size(); ++s) drawSeries(canvas, panels[i], l.frame, panels[i].series[s], s);
    canvas.unclip();
    drawLegend(canvas, panels, l.legend, l.legend_entries);
  }
  return canvas.take();
}

void writePng(const Image& image, const std::filesystem::path& path) {
  std::string png;
  const auto append = [](void* out, void* data, int size) { static_cast<std::string*>(out)->append(static_cast<char*>(data), size); };
  if (!stbi_write_png_to_func(append, &png, image.width, image.height, 3, image.rgb.data(), 3 * image.width))
    throw error(path.string(), ": cannot encode the picture");
  writeFileBytes(path, png);  // atomically
}

}  // namespace qnsim::plot
