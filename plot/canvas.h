#pragma once
// The software canvas of the PNG pictures (plots and mesh pictures): blended rectangles, anti-aliased
// lines and TrueType text on an RGB image. Callers draw in logical pixels (the SVG's units); the image
// has `scale` device pixels per logical pixel, so a figure is rasterised at print resolution.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "plot/font.h"
#include "plot/png.h"

namespace qnsim::plot {

constexpr Color kWhite{1, 1, 1}, kFrame{0.2f, 0.2f, 0.2f}, kGrid{0.88f, 0.88f, 0.88f},
    kMinorGrid{0.95f, 0.95f, 0.95f}, kText{0.1f, 0.1f, 0.1f};

class Canvas {
 public:
  Canvas(int width, int height, double scale = 1.0)
      : scale_(scale), image_{device(width), device(height), std::vector<unsigned char>(3 * size_t(device(width)) * size_t(device(height)))} {
    fillDevice(0, 0, image_.width, image_.height, kWhite);
  }

  // Only pixels inside the clip rectangle (logical) are drawn; the whole picture by default.
  void clip(double x0, double y0, double x1, double y1) {
    clip_[0] = x0 * scale_, clip_[1] = y0 * scale_, clip_[2] = x1 * scale_, clip_[3] = y1 * scale_;
  }
  void unclip() { clip_[0] = clip_[1] = -1e300, clip_[2] = clip_[3] = 1e300; }

  // Blends one device pixel.
  void blend(int x, int y, const Color& c, double coverage) {
    if (x < 0 || y < 0 || x >= image_.width || y >= image_.height || coverage <= 0) return;
    if (x + 1 <= clip_[0] || y + 1 <= clip_[1] || x >= clip_[2] || y >= clip_[3]) return;
    unsigned char* p = &image_.rgb[3 * (static_cast<size_t>(y) * image_.width + x)];
    const float a = static_cast<float>(std::min(coverage, 1.0));
    for (int i = 0; i < 3; ++i) {
      const float value = (&c.r)[i] * 255.0f;
      p[i] = static_cast<unsigned char>(std::lround(p[i] + a * (value - p[i])));
    }
  }

  // A rectangle with fractional edges (partly covered pixels blend).
  void fill(double x0, double y0, double x1, double y1, const Color& c) { fillDevice(x0 * scale_, y0 * scale_, x1 * scale_, y1 * scale_, c); }

  // An anti-aliased segment of the given width: coverage falls off over one device pixel at its edge.
  void line(double x0, double y0, double x1, double y1, const Color& c, double width) {
    x0 *= scale_, y0 *= scale_, x1 *= scale_, y1 *= scale_;
    const double r = 0.5 * std::max(width * scale_, 1.0);
    const double dx = x1 - x0, dy = y1 - y0, length2 = dx * dx + dy * dy;
    for (int y = static_cast<int>(std::floor(std::min(y0, y1) - r - 1)); y <= std::max(y0, y1) + r + 1; ++y)
      for (int x = static_cast<int>(std::floor(std::min(x0, x1) - r - 1)); x <= std::max(x0, x1) + r + 1; ++x) {
        const double px = x + 0.5 - x0, py = y + 0.5 - y0;
        const double t = length2 > 0 ? std::clamp((px * dx + py * dy) / length2, 0.0, 1.0) : 0.0;
        blend(x, y, c, r + 0.5 - std::hypot(px - t * dx, py - t * dy));
      }
  }

  // Text `size` logical pixels tall (the em) with its top-left corner at (x, y); vertical text reads
  // bottom to top, its top edge on the left at x, starting at y.
  void text(double x, double y, const std::string& s, const Color& c, double size, bool vertical = false) {
    const double X = x * scale_, Y = y * scale_;
    Font::sans().draw(s, vertical ? 0 : X, vertical ? 0 : Y, size * scale_, [&](int u, int v, double coverage) {
      if (vertical) blend(static_cast<int>(X) + v, static_cast<int>(Y) - u - 1, c, coverage);
      else blend(u, v, c, coverage);
    });
  }
  static double textWidth(const std::string& s, double size) { return Font::sans().width(s, size); }

  Image take() { return std::move(image_); }

 private:
  int device(int logical) const { return static_cast<int>(std::lround(logical * scale_)); }

  void fillDevice(double x0, double y0, double x1, double y1, const Color& c) {
    for (int y = static_cast<int>(std::floor(y0)); y < std::ceil(y1); ++y)
      for (int x = static_cast<int>(std::floor(x0)); x < std::ceil(x1); ++x) {
        const double cx = std::min<double>(x + 1, x1) - std::max<double>(x, x0), cy = std::min<double>(y + 1, y1) - std::max<double>(y, y0);
        blend(x, y, c, cx * cy);
      }
  }

  double scale_;
  Image image_;
  double clip_[4] = {-1e300, -1e300, 1e300, 1e300};
};

}  // namespace qnsim::plot
