#pragma once
// Triangle meshes drawn in software, side by side, for figures that are pictures (the cloth of
// Fig. 12): perspective from one camera, a depth buffer, two-sided diffuse shading (front faces blue,
// back faces orange, so folds read; rigid colliders grey), 2x2 supersampling.
#include <array>
#include <limits>
#include <string>
#include <vector>

#include "plot/png.h"

namespace qnsim::plot {

struct MeshPicture {
  std::string label;
  std::vector<double> positions;  // x, y, z per vertex
  std::vector<int> triangles;     // three vertex indices per triangle
  // Triangles from this one on (an index into triangles / 3) are rigid bodies, drawn grey on both sides.
  size_t first_rigid = std::numeric_limits<size_t>::max();
};

struct PictureCamera {
  std::array<double, 3> eye{0, 1, 3}, target{0, 0, 0};
  double fov_degrees = 45;
};

// One square panel of `panel_size` pixels per mesh, left to right, each with its label. The camera keeps
// its direction but moves so that all the meshes fill the panels (the same view in each).
Image renderMeshes(const std::vector<MeshPicture>& meshes, const PictureCamera& camera, const std::string& heading, int panel_size = 420);

}  // namespace qnsim::plot
