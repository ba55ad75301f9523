#include "plot/axes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace qnsim::plot {

Axis fitAxis(const std::vector<Series>& series, bool use_y, bool log) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Series& s : series)
    for (double v : use_y ? s.y : s.x)
      if (std::isfinite(v) && (!log || v > 0.0)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  Axis axis;
  axis.log = log;
  if (!(lo <= hi)) {  // nothing to show
    axis.lo = log ? 1e-3 : 0.0;
    axis.hi = 1.0;
    return axis;
  }
  if (log) {
    if (hi / lo >= 10.0) {  // whole decades when the data spans at least one
      axis.lo = std::pow(10.0, std::floor(std::log10(lo)));
      axis.hi = std::pow(10.0, std::ceil(std::log10(hi)));
    } else {  // a narrow range: pad in log space, labelled with linear ticks
      const double pad = std::max(0.05 * std::log10(hi / lo), 0.01);
      axis.lo = lo / std::pow(10.0, pad);
      axis.hi = hi * std::pow(10.0, pad);
    }
    return axis;
  }
  const double span = hi - lo, pad = span > 0.0 ? 0.05 * span : std::max(std::abs(lo) * 0.1, 1.0);
  axis.lo = lo - pad;
  axis.hi = hi + pad;
  return axis;
}

void include(Axis& axis, double value) {
  if (!std::isfinite(value) || (axis.log && value <= 0.0)) return;
  if (axis.log) {
    if (value < axis.lo) axis.lo = std::pow(10.0, std::floor(std::log10(value)));
    if (value > axis.hi) axis.hi = std::pow(10.0, std::ceil(std::log10(value)));
  } else {
    axis.lo = std::min(axis.lo, value);
    axis.hi = std::max(axis.hi, value);
  }
}

namespace {

double niceStep(double span, int max_labels) {
  const double raw = span / std::max(max_labels, 1);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= raw) return m * decade;
  return 10.0 * decade;
}

std::vector<Tick> linearTicks(const Axis& axis, int max_labels) {
  std::vector<Tick> out;
  const double step = niceStep(axis.hi - axis.lo, max_labels);
  const long first = static_cast<long>(std::ceil(axis.lo / step - 1e-9)), last = static_cast<long>(std::floor(axis.hi / step + 1e-9));
  for (long i = first; i <= last && out.size() < 1000; ++i) {
    char exact[32];  // 3 * 0.2 is 0.6000000000000001: snap to 12 digits
    std::snprintf(exact, sizeof exact, "%.12g", static_cast<double>(i) * step);
    const double value = std::strtod(exact, nullptr);
    out.push_back({value, formatTick(value, step)});
  }
  return out;
}

std::vector<Tick> logTicks(const Axis& axis, int max_labels) {
  std::vector<Tick> out;
  const int first = static_cast<int>(std::floor(std::log10(axis.lo) + 1e-9)), last = static_cast<int>(std::ceil(std::log10(axis.hi) - 1e-9));
  const int decades = std::max(last - first, 1);
  const int every = (decades + max_labels - 1) / std::max(max_labels, 1);
  for (int e = first; e <= last; ++e) {
    const double decade = std::pow(10.0, e);
    if (decade >= axis.lo * (1 - 1e-9) && decade <= axis.hi * (1 + 1e-9))
      out.push_back({decade, (e - first) % std::max(every, 1) == 0 ? formatTick(decade, decade) : ""});
    if (decades <= 6)
      for (int m = 2; m <= 9; ++m)
        if (m * decade > axis.lo && m * decade < axis.hi) out.push_back({m * decade, ""});
  }
  std::sort(out.begin(), out.end(), [](const Tick& a, const Tick& b) { return a.value < b.value; });
  return out;
}

}  // namespace

std::vector<Tick> ticks(const Axis& axis, int max_labels) {
  if (!(axis.hi > axis.lo)) return {};
  if (axis.log && axis.hi / axis.lo < 10.0) return linearTicks(axis, max_labels);  // less than a decade
  return axis.log ? logTicks(axis, max_labels) : linearTicks(axis, max_labels);
}

double toUnit(const Axis& axis, double value) {
  if (axis.log) {
    if (!(value > 0.0)) return -std::numeric_limits<double>::infinity();
    return (std::log10(value) - std::log10(axis.lo)) / (std::log10(axis.hi) - std::log10(axis.lo));
  }
  return (value - axis.lo) / (axis.hi - axis.lo);
}

double fromUnit(const Axis& axis, double unit) {
  if (axis.log) return std::pow(10.0, std::log10(axis.lo) + unit * (std::log10(axis.hi) - std::log10(axis.lo)));
  return axis.lo + unit * (axis.hi - axis.lo);
}

std::string formatTick(double value, double step) {
  char text[32];
  const double magnitude = std::max(std::abs(value), std::abs(step));
  if (value == 0.0) return "0";
  if (magnitude >= 1e5 || magnitude < 1e-3) {
    std::snprintf(text, sizeof text, "%.3g", value);
  } else {
    const int digits = std::clamp(static_cast<int>(-std::floor(std::log10(std::abs(step)) + 1e-9)), 0, 6);
    std::snprintf(text, sizeof text, "%.*f", digits, value);
  }
  return text;
}

void decimate(const std::vector<double>& x, const std::vector<double>& y, int target, std::vector<double>& out_x,
              std::vector<double>& out_y) {
  out_x.clear();
  out_y.clear();
  const size_t n = std::min(x.size(), y.size());
  const size_t buckets = static_cast<size_t>(std::max(target / 2, 1));
  if (n <= 2 * buckets) {
    out_x.assign(x.begin(), x.begin() + n);
    out_y.assign(y.begin(), y.begin() + n);
    return;
  }
  for (size_t b = 0; b < buckets; ++b) {
    const size_t begin = b * n / buckets, end = (b + 1) * n / buckets;
    size_t lo = begin, hi = begin;
    for (size_t i = begin; i < end; ++i) {
      if (y[i] < y[lo]) lo = i;
      if (y[i] > y[hi]) hi = i;
    }
    for (size_t i : {std::min(lo, hi), std::max(lo, hi)}) {
      out_x.push_back(x[i]);
      out_y.push_back(y[i]);
      if (lo == hi) break;
    }
  }
}

Color seriesColor(int index) {
  // The palette without black, which vanishes on the sandbox's dark plots.
  static const std::array<Color, 8> colors = {palette::blue,   palette::orange, palette::green, palette::vermillion,
                                              palette::purple, palette::sky,    palette::brown, palette::grey};
  return colors[static_cast<size_t>(std::abs(index)) % colors.size()];
}

std::vector<double> dashPattern(Dash dash) {
  switch (dash) {
    case Dash::dashed: return {4, 2.5};
    case Dash::dotted: return {1, 2};
    case Dash::dash_dot: return {4, 2, 1, 2};
    case Dash::long_dash: return {8, 3};
    case Dash::solid: break;
  }
  return {};
}

}  // namespace qnsim::plot
