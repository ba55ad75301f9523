#pragma once
// The scaling curve of qnsim_bench --catalog: the twisting bar (scenes/twisting_bar.json) meshed as boxes
// of 1k to 130k tets, ms per frame against tets on log-log axes, and the exponent fitted to them.
#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "plot/axes.h"

namespace qnsim::bench {

// Cells of the five bars (5 tets per cell): 990, 3375, 11520, 38880 and 130050 tets, about 3.4x apart,
// the cells close to cubes on the 1 x 0.2 x 0.2 m bar.
const std::vector<Eigen::Vector3i>& scalingBarCells();

// scenes/twisting_bar.json (its materials, handles, motion and solver) with the bar a box of `cells`,
// as the text of a scene file. Throws qnsim::Error when the scene cannot be read.
std::string scalingBarScene(const Eigen::Vector3i& cells);

// y = scale x^slope fitted by least squares to log y against log x, with R^2 of that fit. NaN with
// fewer than two points with positive x and y, or with all x equal.
struct PowerFit {
  double slope = NAN, scale = NAN, r2 = NAN;
};
PowerFit fitPowerLaw(const std::vector<double>& x, const std::vector<double>& y);

// ms per frame against tets, log-log: the measured medians, the line fitted to them and, for comparison,
// a line of slope 1 (cost linear in the size) through the fitted line's middle; and the CPU time per
// frame of all threads (empty: left out).
plot::PlotSpec scalingPlot(const std::vector<double>& tets, const std::vector<double>& ms, const PowerFit& fit,
                           const std::vector<double>& cpu_ms = {});

}  // namespace qnsim::bench
