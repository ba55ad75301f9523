#include "core/mesh/spatial_order.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace qnsim {
namespace {

// The 21 low bits of v spread to every third bit.
uint64_t spreadBits(uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

}  // namespace

std::vector<int> spatialOrder(const MatX3& points) {
  const int n = static_cast<int>(points.rows());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (n < 2) return order;
  Vec3 low = Vec3::Constant(INFINITY), high = Vec3::Constant(-INFINITY);
  for (int i = 0; i < n; ++i)
    if (points.row(i).allFinite()) low = low.cwiseMin(points.row(i).transpose()), high = high.cwiseMax(points.row(i).transpose());
  if (!low.allFinite()) return order;
  constexpr double kCells = (1 << 21) - 1;
  const Vec3 scale = (high - low).unaryExpr([&](double extent) { return extent > 0 ? kCells / extent : 0.0; });
  std::vector<uint64_t> code(n);
  for (int i = 0; i < n; ++i) {
    uint64_t c = 0;
    for (int k = 0; k < 3; ++k) {
      const double cell = (points(i, k) - low[k]) * scale[k];
      c |= spreadBits(cell >= 0 && cell <= kCells ? static_cast<uint64_t>(cell) : 0) << k;
    }
    code[i] = c;
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return code[a] < code[b]; });
  return order;
}

}  // namespace qnsim
