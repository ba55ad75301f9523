#pragma once
// Plots with Dear ImGui draw lists (there is no ImPlot here): frame, grid, ticks, log axes, axis
// labels, several series, a legend, and a hover read-out.
#include <imgui.h>

#include "plot/axes.h"

namespace qnsim::gui {

using namespace qnsim::plot;  // the sandbox draws the shared plot descriptions (plot/axes.h)

struct PlotArea {
  ImVec2 min, max;  // the data rectangle in screen pixels
  Axis x, y;
  ImVec2 toScreen(double vx, double vy) const;
  double xAt(float px) const;
  double yAt(float py) const;
};

// Draws the plot in a rectangle of `size` at the cursor (width <= 0: the available width). The
// returned area lets callers draw on top (fitted lines, draggable points).
PlotArea drawPlot(const char* id, const PlotSpec& spec, ImVec2 size);

ImU32 toImColor(const Color& c, float alpha = 1.0f);

}  // namespace qnsim::gui
