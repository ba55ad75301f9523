#include "plot/png.h"

#include <stb_easy_font.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>

#include "core/common/error.h"
#include "core/common/files.h"

namespace qnsim::plot {
namespace {

constexpr Color kBackground{0.98f, 0.98f, 0.98f}, kWhite{1, 1, 1}, kFrame{0.27f, 0.27f, 0.27f}, kGrid{0.87f, 0.87f, 0.87f},
    kMinorGrid{0.94f, 0.94f, 0.94f}, kText{0.1f, 0.1f, 0.1f};
constexpr float kTextScale = 2.0f;  // stb's easy font is 7 pixels tall; whole pixels keep it crisp

class Canvas {
 public:
  Canvas(int width, int height) : image_{width, height, std::vector<unsigned char>(3 * width * height)} { fill(0, 0, width, height, kBackground); }

  void blend(int x, int y, const Color& c, double coverage) {
    if (x < 0 || y < 0 || x >= image_.width || y >= image_.height || coverage <= 0) return;
    unsigned char* p = &image_.rgb[3 * (static_cast<size_t>(y) * image_.width + x)];
    const float a = static_cast<float>(std::min(coverage, 1.0));
    for (int i = 0; i < 3; ++i) {
      const float value = (&c.r)[i] * 255.0f;
      p[i] = static_cast<unsigned char>(std::lround(p[i] + a * (value - p[i])));
    }
  }

  // A rectangle with fractional edges (partly covered pixels blend).
  void fill(double x0, double y0, double x1, double y1, const Color& c) {
    for (int y = static_cast<int>(std::floor(y0)); y < std::ceil(y1); ++y)
      for (int x = static_cast<int>(std::floor(x0)); x < std::ceil(x1); ++x) {
        const double cx = std::min<double>(x + 1, x1) - std::max<double>(x, x0), cy = std::min<double>(y + 1, y1) - std::max<double>(y, y0);
        blend(x, y, c, cx * cy);
      }
  }

  // An anti-aliased segment of the given width: coverage falls off over one pixel at its edge.
  void line(double x0, double y0, double x1, double y1, const Color& c, double width) {
    const double r = 0.5 * width;
    const double dx = x1 - x0, dy = y1 - y0, length2 = dx * dx + dy * dy;
    for (int y = static_cast<int>(std::floor(std::min(y0, y1) - r - 1)); y <= std::max(y0, y1) + r + 1; ++y)
      for (int x = static_cast<int>(std::floor(std::min(x0, x1) - r - 1)); x <= std::max(x0, x1) + r + 1; ++x) {
        const double px = x + 0.5 - x0, py = y + 0.5 - y0;
        const double t = length2 > 0 ? std::clamp((px * dx + py * dy) / length2, 0.0, 1.0) : 0.0;
        const double distance = std::hypot(px - t * dx, py - t * dy);
        blend(x, y, c, r + 0.5 - distance);
      }
  }

  // Text with its top-left corner at (x, y); vertical text reads bottom to top from (x, y).
  void text(double x, double y, const std::string& s, const Color& c, bool vertical = false) {
    std::vector<char> quads(1024 * (s.size() + 1));  // up to 16 quads of 64 bytes per character
    const int count = stb_easy_font_print(0, 0, const_cast<char*>(s.c_str()), nullptr, quads.data(), static_cast<int>(quads.size()));
    for (int q = 0; q < count; ++q) {
      const float* v = reinterpret_cast<const float*>(quads.data() + 64 * q);  // 4 vertices of x, y, z, colour
      const double qx0 = v[0] * kTextScale, qy0 = v[1] * kTextScale, qx1 = v[8] * kTextScale, qy1 = v[9] * kTextScale;
      if (vertical) fill(x + qy0, y - qx1, x + qy1, y - qx0, c);
      else fill(x + qx0, y + qy0, x + qx1, y + qy1, c);
    }
  }
  static double textWidth(const std::string& s) { return stb_easy_font_width(const_cast<char*>(s.c_str())) * kTextScale; }

  Image take() { return std::move(image_); }

 private:
  Image image_;
};

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
