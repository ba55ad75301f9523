#pragma once
// Plots as a standalone SVG picture (the same PlotSpec the live panels draw), readable without the app.
#include <string>
#include <vector>

#include "plot/axes.h"

namespace qnsim::plot {

// Panels in rows of `style.columns` (stacked by default), each `width` x `panel_height` pixels, under an
// optional heading; text as text (DejaVu Sans, the face the PNG draws), so it stays sharp and searchable.
std::string svgPlots(const std::vector<PlotSpec>& panels, const std::string& heading, int width = 480, int panel_height = 300,
                     const FigureStyle& style = {});

}  // namespace qnsim::plot
