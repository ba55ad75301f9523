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

namespace {

// CSR of `count` lists filled by `each(emit)`, emit(list, entry) called in a fixed order.
template <class Each>
void buildLists(int count, std::vector<int>& start, std::vector<int>& entry, Each&& each) {
  start.assign(count + 1, 0);
  each([&](int list, int) { ++start[list + 1]; });
  for (int i = 0; i < count; ++i) start[i + 1] += start[i];
  entry.resize(start[count]);
  std::vector<int> next(start.begin(), start.end() - 1);
  each([&](int list, int value) { entry[next[list]++] = value; });
}

}  // namespace

VertexElements::VertexElements(const Model& model) {
  const int n = model.vertexCount();
  buildLists(n, tet_start, tet_entry, [&](auto&& emit) {
    for (int e = 0; e < model.tets.size(); ++e)
      for (int a = 0; a < 4; ++a) emit(model.tets.vertices[e][a], 4 * e + a);
  });
  buildLists(n, spring_start, spring_entry, [&](auto&& emit) {
    for (int s = 0; s < model.springs.size(); ++s)
      for (int end = 0; end < 2; ++end) emit(model.springs.vertices[s][end], 2 * s + end);
  });
}

std::vector<std::vector<int>> colorVertices(const Model& model) {
  const VertexElements incident(model);
  std::vector<int> color(model.vertexCount(), -1);
  std::vector<std::vector<int>> colors;
  std::vector<char> taken;
  for (int v = 0; v < model.vertexCount(); ++v) {
    taken.assign(colors.size() + 1, 0);
    for (int i = incident.tet_start[v]; i < incident.tet_start[v + 1]; ++i)
      for (int u : model.tets.vertices[incident.tet_entry[i] / 4]) taken[color[u] + 1] = 1;  // -1: not coloured yet
    for (int i = incident.spring_start[v]; i < incident.spring_start[v + 1]; ++i)
      for (int u : model.springs.vertices[incident.spring_entry[i] / 2]) taken[color[u] + 1] = 1;
    const int c = static_cast<int>(std::find(taken.begin() + 1, taken.end(), 0) - taken.begin()) - 1;
    if (c == static_cast<int>(colors.size())) colors.emplace_back();
    colors[c].push_back(v);
    color[v] = c;
  }
  return colors;
}

}  // namespace qnsim
