#include "core/model/coloring.h"

#include <algorithm>

namespace qnsim {
namespace {

// The vertices of element id e (tets first, then springs).
std::vector<int> elementVertices(const Model& model, int e) {
  if (e < model.tets.size()) {
    const Eigen::Vector4i& t = model.tets.vertices[e];
    return {t[0], t[1], t[2], t[3]};
  }
  const Eigen::Vector2i& s = model.springs.vertices[e - model.tets.size()];
  return {s[0], s[1]};
}

}  // namespace

std::vector<std::vector<int>> colorElements(const Model& model) {
  std::vector<std::vector<int>> colors;
  std::vector<std::vector<int>> vertex_colors(model.vertexCount());  // the colours already touching each vertex
  std::vector<char> taken;
  const int count = model.tets.size() + model.springs.size();
  for (int e = 0; e < count; ++e) {
    const std::vector<int> vertices = elementVertices(model, e);
    taken.assign(colors.size() + 1, 0);
    for (int v : vertices)
      for (int c : vertex_colors[v]) taken[c] = 1;
    const int color = static_cast<int>(std::find(taken.begin(), taken.end(), 0) - taken.begin());
    if (color == static_cast<int>(colors.size())) colors.emplace_back();
    colors[color].push_back(e);
    for (int v : vertices) vertex_colors[v].push_back(color);
  }
  return colors;
}

}  // namespace qnsim
