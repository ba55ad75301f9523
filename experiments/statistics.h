#pragma once
// Order statistics of measured samples, shared by the experiments' tables.
#include <algorithm>
#include <cmath>
#include <vector>

namespace qnsim {

// The q-quantile (0 <= q <= 1) by linear interpolation between the sorted samples; NaN for none.
inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(at));
  const size_t above = std::min(below + 1, v.size() - 1);
  return v[below] + (at - static_cast<double>(below)) * (v[above] - v[below]);
}

inline double median(std::vector<double> v) { return quantile(std::move(v), 0.5); }

}  // namespace qnsim
