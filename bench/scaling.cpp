#include "bench/scaling.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/common/files.h"
#include "core/scene/catalog.h"
#include "qnsim/error.h"

namespace qnsim::bench {

const std::vector<Eigen::Vector3i>& scalingBarCells() {
  static const std::vector<Eigen::Vector3i> cells = {{22, 3, 3}, {27, 5, 5}, {36, 8, 8}, {54, 12, 12}, {90, 17, 17}};
  return cells;
}

std::string scalingBarScene(const Eigen::Vector3i& cells) {
  const std::filesystem::path path = catalogScenePath("twisting_bar");
  nlohmann::json scene;
  try {
    scene = nlohmann::json::parse(readFileBytes(path));
  } catch (const nlohmann::json::exception& e) {
    throw error(path.string(), ": ", e.what());
  }
  const int tets = 5 * cells.prod();
  nlohmann::json& bar = scene.at("bodies").at(0);
  bar.erase("mesh");
  bar["shape"] = {{"type", "box"}, {"size", {1.0, 0.2, 0.2}}, {"cells", {cells.x(), cells.y(), cells.z()}}};
  scene["name"] = "Twisting bar, " + std::to_string(tets) + " tets";
  scene["description"] = "scenes/twisting_bar.json with its bar a box of " + std::to_string(cells.x()) + " x " + std::to_string(cells.y()) +
                         " x " + std::to_string(cells.z()) + " cells (" + std::to_string(tets) +
                         " tets), written by qnsim_bench --catalog for its scaling curve.";
  return scene.dump(2) + "\n";
}

PowerFit fitPowerLaw(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> u, v;  // log10 x, log10 y
  for (size_t i = 0; i < std::min(x.size(), y.size()); ++i)
    if (x[i] > 0 && y[i] > 0 && std::isfinite(x[i]) && std::isfinite(y[i])) u.push_back(std::log10(x[i])), v.push_back(std::log10(y[i]));
  const double n = static_cast<double>(u.size());
  if (n < 2) return {};
  double mu = 0, mv = 0;
  for (size_t i = 0; i < u.size(); ++i) mu += u[i] / n, mv += v[i] / n;
  double suu = 0, suv = 0, svv = 0;
  for (size_t i = 0; i < u.size(); ++i) {
    suu += (u[i] - mu) * (u[i] - mu);
    suv += (u[i] - mu) * (v[i] - mv);
    svv += (v[i] - mv) * (v[i] - mv);
  }
  if (suu == 0) return {};
  PowerFit fit;
  fit.slope = suv / suu;
  fit.scale = std::pow(10.0, mv - fit.slope * mu);
  fit.r2 = svv > 0 ? suv * suv / (suu * svv) : 1.0;  // all y equal: the flat line fits exactly
  return fit;
}

namespace {

// y = scale x^slope on [lo, hi], sampled densely enough for a dashed line to show its dashes.
plot::Series powerLine(const std::string& label, int color, double scale, double slope, double lo, double hi) {
  plot::Series s{label, plot::seriesColor(color), {}, {}};
  constexpr int kSamples = 256;
  for (int i = 0; i <= kSamples; ++i) {
    const double x = lo * std::pow(hi / lo, double(i) / kSamples);
    s.x.push_back(x), s.y.push_back(scale * std::pow(x, slope));
  }
  s.dash = plot::Dash::dashed;
  return s;
}

}  // namespace

plot::PlotSpec scalingPlot(const std::vector<double>& tets, const std::vector<double>& ms, const PowerFit& fit,
                           const std::vector<double>& cpu_ms) {
  plot::PlotSpec p{"Cost per frame of the twisting bar against its size", "tets", "ms per frame", {}, {}, {}, true};
  if (!std::isnan(fit.slope) && !tets.empty()) {
    const auto [lo, hi] = std::minmax_element(tets.begin(), tets.end());
    char label[64];
    std::snprintf(label, sizeof label, "fit to the medians: slope %.2f (R^2 = %.3f)", fit.slope, fit.r2);
    p.series.push_back(powerLine(label, 1, fit.scale, fit.slope, *lo, *hi));
    const double middle = std::sqrt(*lo * *hi), at_middle = fit.scale * std::pow(middle, fit.slope);
    p.series.push_back(powerLine("slope 1 (linear)", 2, at_middle / middle, 1.0, *lo, *hi));
  }
  if (!cpu_ms.empty()) {
    plot::Series cpu{"CPU time, all threads", plot::seriesColor(3), tets, cpu_ms};
    cpu.markers = true;
    p.series.push_back(cpu);
  }
  plot::Series measured{"median wall time", plot::seriesColor(0), tets, ms};
  measured.markers = true;
  p.series.push_back(measured);  // last: drawn over the lines
  p.x = plot::fitAxis(p.series, false, true);
  p.y = plot::fitAxis(p.series, true, true);
  plot::include(p.y, 10 * p.y.hi);  // a decade above the data for the legend (the curve rises to the top right)
  return p;
}

}  // namespace qnsim::bench
