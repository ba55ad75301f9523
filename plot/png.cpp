#include "plot/png.h"

#include <stb_image_write.h>

#include <algorithm>
#include <cmath>

#include "core/common/files.h"
#include "plot/canvas.h"
#include "qnsim/error.h"

namespace qnsim::plot {
namespace {

void drawAxes(Canvas& canvas, const PlotSpec& p, const PanelFrame& f) {
  canvas.fill(f.left, f.top, f.left + f.width, f.top + f.height, kWhite);
  for (const Tick& t : ticks(p.x, 8)) {
    const double x = f.px(p.x, t.value);
    canvas.line(x, f.top, x, f.top + f.height, t.label.empty() ? kMinorGrid : kGrid, 1.0);
    if (!t.label.empty()) canvas.text(x - Canvas::textWidth(t.label) / 2, f.top + f.height + 6, t.label, kText);
  }
  for (const Tick& t : ticks(p.y, 6)) {
    const double y = f.py(p.y, t.value);
    canvas.line(f.left, y, f.left + f.width, y, t.label.empty() ? kMinorGrid : kGrid, 1.0);
    if (!t.label.empty()) canvas.text(f.left - 6 - Canvas::textWidth(t.label), y - 5, t.label, kText);
  }
  const double right = f.left + f.width, bottom = f.top + f.height;
  canvas.line(f.left, f.top, right, f.top, kFrame, 1.0);
  canvas.line(f.left, bottom, right, bottom, kFrame, 1.0);
  canvas.line(f.left, f.top, f.left, bottom, kFrame, 1.0);
  canvas.line(right, f.top, right, bottom, kFrame, 1.0);
  canvas.text(f.left + (f.width - Canvas::textWidth(p.title)) / 2, f.top - 22, p.title, kText);
  canvas.text(f.left + (f.width - Canvas::textWidth(p.x_label)) / 2, f.top + f.height + 24, p.x_label, kText);
  canvas.text(f.left - 96, f.top + (f.height + Canvas::textWidth(p.y_label)) / 2, p.y_label, kText, true);
}

void drawSeries(Canvas& canvas, const PlotSpec& p, const PanelFrame& f, const Series& s) {
  double travelled = 0;  // along the polyline, for dashes of 6 on, 4 off
  bool have_previous = false;
  double px = 0, py = 0;
  for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (!std::isfinite(toUnit(p.x, s.x[i])) || !std::isfinite(toUnit(p.y, s.y[i]))) continue;
    const double x = f.px(p.x, s.x[i]), y = f.py(p.y, std::max(s.y[i], p.y.log ? p.y.lo : s.y[i]));
    if (have_previous && (!s.dashed || std::fmod(travelled, 10.0) < 6.0)) canvas.line(px, py, x, y, s.color, 1.8);
    if (s.markers) canvas.line(x, y, x, y, s.color, 4.0);
    if (have_previous) travelled += std::hypot(x - px, y - py);
    px = x, py = y, have_previous = true;
  }
}

void drawLegend(Canvas& canvas, const PlotSpec& p, const PanelFrame& f) {
  double widest = 0;  // long labels move the legend left instead of running off the picture
  for (const Series& s : p.series) widest = std::max(widest, Canvas::textWidth(s.label));
  const double x = f.left + f.width - std::max(190.0, 28 + widest + 10);
  double y = f.top + 12;
  for (const Series& s : p.series) {
    if (s.label.empty()) continue;
    canvas.line(x, y, x + 22, y, s.color, 2.5);
    canvas.text(x + 28, y - 5, s.label, kText);
    y += 17;
  }
}

}  // namespace

Image rasterizePlots(const std::vector<PlotSpec>& panels, const std::string& heading, int width, int panel_height) {
  Canvas canvas(width, headingHeight(!heading.empty()) + panel_height * static_cast<int>(panels.size()));
  if (!heading.empty()) canvas.text(16, 12, heading, kText);
  for (size_t i = 0; i < panels.size(); ++i) {
    const PanelFrame f = panelFrame(static_cast<int>(i), width, panel_height, !heading.empty());
    drawAxes(canvas, panels[i], f);
    for (const Series& s : panels[i].series) drawSeries(canvas, panels[i], f, s);
    if (panels[i].legend) drawLegend(canvas, panels[i], f);
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
