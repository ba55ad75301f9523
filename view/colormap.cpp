#include "view/colormap.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace qnsim::view {

Vec3f fromSrgb(int r, int g, int b) {
  const auto linear = [](int c) {
    const float s = c / 255.0f;
    return s <= 0.04045f ? s / 12.92f : std::pow((s + 0.055f) / 1.055f, 2.4f);
  };
  return {linear(r), linear(g), linear(b)};
}

Vec3f sequentialColor(float t) {
  static const std::array<Vec3f, 6> stops = {fromSrgb(48, 18, 99),   fromSrgb(41, 98, 196),  fromSrgb(32, 170, 170),
                                             fromSrgb(148, 210, 70), fromSrgb(250, 195, 40), fromSrgb(215, 40, 30)};
  t = std::clamp(std::isfinite(t) ? t : 0.0f, 0.0f, 1.0f) * (stops.size() - 1);
  const int i = std::min(static_cast<int>(t), static_cast<int>(stops.size()) - 2);
  const float f = t - i;
  return (1.0f - f) * stops[i] + f * stops[i + 1];
}

Vec3f regionColor(int region) {
  static const std::array<Vec3f, 8> palette = {fromSrgb(222, 170, 120), fromSrgb(120, 170, 222), fromSrgb(235, 235, 225),
                                               fromSrgb(150, 200, 140), fromSrgb(200, 140, 190), fromSrgb(230, 200, 110),
                                               fromSrgb(140, 200, 200), fromSrgb(210, 130, 120)};
  return palette[static_cast<size_t>(std::abs(region)) % palette.size()];
}

}  // namespace qnsim::view
