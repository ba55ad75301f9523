#pragma once
// The software canvas of the PNG pictures (plots and mesh pictures): blended rectangles, anti-aliased
// lines and stb's easy font, on an RGB image.
#include <stb_easy_font.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "plot/png.h"

namespace qnsim::plot {

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

}  // namespace qnsim::plot
