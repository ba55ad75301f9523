#include "tools/assets/repair.h"

#include <map>
#include <utility>

#include "qnsim/error.h"

namespace qnsim::assets {

std::vector<std::vector<int>> boundaryLoops(const SurfaceMesh& mesh) {
  std::map<std::pair<int, int>, int> directed;  // edge -> count; ordered for determinism
  for (Eigen::Index f = 0; f < mesh.F.rows(); ++f)
    for (int k = 0; k < 3; ++k) ++directed[{mesh.F(f, k), mesh.F(f, (k + 1) % 3)}];
  std::map<int, int> next;  // hole edges run opposite to the face edges that have no twin
  for (const auto& [edge, count] : directed) {
    if (count > 1) throw error("surface: edge ", edge.first, "-", edge.second, " is shared by more than two faces");
    if (!directed.count({edge.second, edge.first})) {
      if (next.count(edge.second)) throw error("surface: vertex ", edge.second, " touches two holes");
      next[edge.second] = edge.first;
    }
  }
  std::vector<std::vector<int>> loops;
  while (!next.empty()) {
    std::vector<int> loop;
    for (int v = next.begin()->first; next.count(v);) {
      loop.push_back(v);
      const int w = next[v];
      next.erase(v);
      v = w;
    }
    loops.push_back(std::move(loop));
  }
  return loops;
}

int closeHoles(SurfaceMesh& mesh) {
  const auto loops = boundaryLoops(mesh);
  Eigen::Index nv = mesh.V.rows(), nf = mesh.F.rows();
  Eigen::Index added_faces = 0;
  for (const auto& loop : loops) added_faces += static_cast<Eigen::Index>(loop.size());
  mesh.V.conservativeResize(nv + static_cast<Eigen::Index>(loops.size()), 3);
  mesh.F.conservativeResize(nf + added_faces, 3);
  for (const auto& loop : loops) {
    Vec3 centre = Vec3::Zero();
    for (int v : loop) centre += mesh.V.row(v).transpose() / static_cast<double>(loop.size());
    mesh.V.row(nv) = centre;
    for (std::size_t i = 0; i < loop.size(); ++i) mesh.F.row(nf++) << loop[i], loop[(i + 1) % loop.size()], static_cast<int>(nv);
    ++nv;
  }
  return static_cast<int>(loops.size());
}

void dropUnusedVertices(SurfaceMesh& mesh) {
  std::vector<int> index(mesh.V.rows(), -1);
  int n = 0;
  for (Eigen::Index f = 0; f < mesh.F.rows(); ++f)
    for (int k = 0; k < 3; ++k)
      if (index[mesh.F(f, k)] < 0) index[mesh.F(f, k)] = n++;
  MatX3 V(n, 3);
  for (Eigen::Index v = 0; v < mesh.V.rows(); ++v)
    if (index[v] >= 0) V.row(index[v]) = mesh.V.row(v);
  for (Eigen::Index f = 0; f < mesh.F.rows(); ++f)
    for (int k = 0; k < 3; ++k) mesh.F(f, k) = index[mesh.F(f, k)];
  mesh.V = std::move(V);
}

double enclosedVolume(const SurfaceMesh& mesh) {
  double volume = 0;
  for (Eigen::Index f = 0; f < mesh.F.rows(); ++f) {
    const Vec3 a = mesh.V.row(mesh.F(f, 0)), b = mesh.V.row(mesh.F(f, 1)), c = mesh.V.row(mesh.F(f, 2));
    volume += a.dot(b.cross(c)) / 6.0;
  }
  return volume;
}

}  // namespace qnsim::assets
