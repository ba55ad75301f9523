#pragma once
// Plots as a PNG picture: the same panels and layout as svg.h, rasterised in software (anti-aliased
// lines, TrueType text) at print resolution, so a figure can be looked at without a browser or a window.
#include <filesystem>
#include <string>
#include <vector>

#include "plot/axes.h"

namespace qnsim::plot {

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;  // row-major, 3 bytes per pixel
};

// width (of a column) and panel_height in logical pixels (those of the SVG); the image has `scale` pixels
// per logical pixel: 3 prints a figure 480 pixels wide at 4.8 inches and 300 dpi.
Image rasterizePlots(const std::vector<PlotSpec>& panels, const std::string& heading, int width = 480, int panel_height = 300,
                     double scale = 3.0, const FigureStyle& style = {});

// Writes the picture through a temporary file renamed into place; throws qnsim::Error naming the path.
void writePng(const Image& image, const std::filesystem::path& path);

}  // namespace qnsim::plot
