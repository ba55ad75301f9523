#pragma once
// Plots as a PNG picture: the same panels and layout as svg.h, rasterised in software (anti-aliased
// lines, stb's easy font for the text), so a figure can be looked at without a browser or a window.
#include <filesystem>
#include <string>
#include <vector>

#include "plot/axes.h"

namespace qnsim::plot {

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;  // row-major, 3 bytes per pixel
};

Image rasterizePlots(const std::vector<PlotSpec>& panels, const std::string& heading, int width = 900, int panel_height = 380);

// Writes the picture through a temporary file renamed into place; throws qnsim::Error naming the path.
void writePng(const Image& image, const std::filesystem::path& path);

}  // namespace qnsim::plot
