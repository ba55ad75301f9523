#pragma once
// The exporters' file contents (internal to core/export; qnsim/export.h writes them).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/export/drawn_surfaces.h"

namespace qnsim {

// One frame's OBJ text: an object per surface.
std::string objFrameText(const std::vector<DrawnSurface>& surfaces, const VecX& x, int frame, double time);

// A surface animated over the frames of a .glb: its triangles, its texture coordinates (2 per vertex, or
// none) and its positions and normals at each frame (3 floats per vertex).
struct GlbMesh {
  std::string name;
  std::vector<std::uint32_t> indices;
  std::vector<float> uv;
  bool double_sided = false;
  std::vector<std::vector<float>> positions, normals;
};
// A glTF 2.0 binary: one node and mesh per GlbMesh, drawn at the first frame's positions, and one animation
// whose morph target k (frame k + 1) has weight 1 at times[k + 1] and 0 at the frames around it, so that
// linear interpolation of the weights blends consecutive frames.
std::string glbBytes(const std::vector<GlbMesh>& meshes, const std::vector<double>& times);

}  // namespace qnsim
