#pragma once
// Each method's look in every figure: the paper's name ("Ours (m = 5)", "Newton", "PD"), its own colour,
// dash and symbol, the same in every figure, the Compare tab and the recordings. Keyed by the method's
// label (the name in CSV files and on the command line), with or without a "scene/" prefix.
#include <string>

#include "plot/axes.h"

namespace qnsim::plot {

// A series for the method labelled `label`, the `index`-th of its figure: a known method gets its own
// name and look; any other gets the label as its name and the index's colour, dash and symbol.
Series methodSeries(const std::string& label, int index);

// The name a reader sees for a method label ("lbfgs_m5" -> "Ours (m = 5)", "lbfgs_m5, wolfe" -> "Ours
// (m = 5), strong Wolfe"); the label itself if unknown.
std::string methodName(const std::string& label);

// The settings part of a label (", cg, ichol_a") as a reader names them (", CG, ichol(M/h² + L)").
std::string settingsName(const std::string& variant);

}  // namespace qnsim::plot
