#include "core/mesh/shapes.h"

#include <algorithm>
#include <array>
#include <set>
#include <utility>

#include "core/mesh/mesh_check.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {

// Corner c of a cube has offsets (c & 1, (c >> 1) & 1, (c >> 2) & 1). Even cubes cut off the corners
// 0, 3, 5, 6 around the central tet {1, 2, 4, 7}; odd cubes the mirror image.
constexpr std::array<std::array<int, 4>, 5> kEvenSplit = {{{1, 2, 4, 7}, {0, 1, 2, 4}, {3, 2, 1, 7}, {5, 4, 1, 7}, {6, 4, 2, 7}}};
constexpr std::array<std::array<int, 4>, 5> kOddSplit = {{{0, 3, 5, 6}, {1, 0, 3, 5}, {2, 3, 0, 6}, {4, 5, 6, 0}, {7, 6, 5, 3}}};

void orientPositively(const MatX3& V, Eigen::Vector4i& t) {
  const Vec3 a = V.row(t[0]), b = V.row(t[1]), c = V.row(t[2]), d = V.row(t[3]);
  if ((b - a).cross(c - a).dot(d - a) < 0) std::swap(t[2], t[3]);
}

}  // namespace

TetMesh makeBox(const Vec3& size, const Eigen::Vector3i& cells) {
  if ((cells.array() < 1).any()) throw error("box: cell counts must be at least 1, got ", cells.transpose());
  if (!(size.array() > 0).all()) throw error("box: size must be positive, got ", size.transpose());
  return makeCellGrid(-0.5 * size, size, cells, {});
}

TetMesh makeCellGrid(const Vec3& origin, const Vec3& size, const Eigen::Vector3i& cells, const std::function<bool(int, int, int)>& keep) {
  const Eigen::Vector3i n = cells.array() + 1;
  const auto index = [&](int i, int j, int k) { return (i * n.y() + j) * n.z() + k; };
  TetMesh mesh;
  mesh.V.resize(n.prod(), 3);
  for (int i = 0; i < n.x(); ++i)
    for (int j = 0; j < n.y(); ++j)
      for (int k = 0; k < n.z(); ++k)
        mesh.V.row(index(i, j, k)) = Vec3(i, j, k).cwiseProduct(size).cwiseQuotient(cells.cast<double>()) + origin;
  std::vector<Eigen::Vector4i> tets;
  tets.reserve(5 * static_cast<size_t>(cells.prod()));
  for (int i = 0; i < cells.x(); ++i)
    for (int j = 0; j < cells.y(); ++j)
      for (int k = 0; k < cells.z(); ++k) {
        if (keep && !keep(i, j, k)) continue;
        const auto& split = (i + j + k) % 2 == 0 ? kEvenSplit : kOddSplit;
        for (const auto& tet : split) {
          Eigen::Vector4i t;
          for (int c = 0; c < 4; ++c) t[c] = index(i + (tet[c] & 1), j + ((tet[c] >> 1) & 1), k + ((tet[c] >> 2) & 1));
          orientPositively(mesh.V, t);
          tets.push_back(t);
        }
      }
  mesh.T.resize(static_cast<Eigen::Index>(tets.size()), 4);
  for (size_t t = 0; t < tets.size(); ++t) mesh.T.row(static_cast<Eigen::Index>(t)) = tets[t].transpose();
  dropUnusedVertices(mesh);  // only the corners of kept cells, in grid order (none dropped when all are kept)
  mesh.region = Eigen::VectorXi::Zero(mesh.T.rows());
  return mesh;
}

SpringMesh makeClothGrid(const Vec2& size, const Eigen::Vector2i& vertices) {
  const int nx = vertices.x(), nz = vertices.y();
  if (nx < 2 || nz < 2) throw error("cloth: needs at least 2 x 2 vertices, got ", nx, " x ", nz);
  if (!(size.array() > 0).all()) throw error("cloth: size must be positive, got ", size.transpose());
  const auto index = [nz](int i, int j) { return i * nz + j; };
  SpringMesh cloth;
  cloth.surface.V.resize(nx * nz, 3);
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < nz; ++j)
      cloth.surface.V.row(index(i, j)) = Vec3(size.x() * (double(i) / (nx - 1) - 0.5), 0.0, size.y() * (double(j) / (nz - 1) - 0.5));
  cloth.surface.F.resize(2 * (nx - 1) * (nz - 1), 3);
  std::set<std::pair<int, int>> edges;
  const auto addEdge = [&edges](int a, int b) { edges.insert({std::min(a, b), std::max(a, b)}); };
  int row = 0;
  for (int i = 0; i + 1 < nx; ++i)
    for (int j = 0; j + 1 < nz; ++j) {
      const int a = index(i, j), b = index(i + 1, j), c = index(i + 1, j + 1), d = index(i, j + 1);
      // Faces wind so that their normals point up (+y); the diagonal alternates in a checkerboard.
      const std::array<Eigen::Vector3i, 2> tris = (i + j) % 2 == 0 ? std::array<Eigen::Vector3i, 2>{{{a, d, c}, {a, c, b}}}
                                                                     : std::array<Eigen::Vector3i, 2>{{{a, d, b}, {b, d, c}}};
      for (const auto& t : tris) {
        cloth.surface.F.row(row++) = t;
        addEdge(t[0], t[1]);
        addEdge(t[1], t[2]);
        addEdge(t[2], t[0]);
      }
    }
  cloth.stretch_springs.resize(static_cast<Eigen::Index>(edges.size()), 2);
  row = 0;
  for (const auto& [a, b] : edges) cloth.stretch_springs.row(row++) << a, b;
  std::vector<std::array<int, 3>> bends;  // ends and middle
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < nz; ++j) {
      if (i + 2 < nx) bends.push_back({index(i, j), index(i + 2, j), index(i + 1, j)});
      if (j + 2 < nz) bends.push_back({index(i, j), index(i, j + 2), index(i, j + 1)});
    }
  const auto count = static_cast<Eigen::Index>(bends.size());
  cloth.bend_springs.resize(count, 2);
  cloth.bend_middle.resize(count);
  for (Eigen::Index s = 0; s < count; ++s) {
    const auto& [a, b, middle] = bends[static_cast<size_t>(s)];
    cloth.bend_springs.row(s) << a, b;
    cloth.bend_middle[s] = middle;
  }
  return cloth;
}

SpringMesh makeStrands(const Vec2& size, const Eigen::Vector2i& strands, double length, int segments) {
  const int nx = strands.x(), nz = strands.y();
  if (nx < 1 || nz < 1 || segments < 2) throw error("strands: needs at least 1 x 1 strands of 2 segments, got ", nx, " x ", nz, " of ", segments);
  if (!(size.array() >= 0).all() || !(length > 0)) throw error("strands: size must not be negative and length must be positive");
  const int per_strand = segments + 1;
  const auto coordinate = [](double extent, int i, int count) { return count > 1 ? extent * (double(i) / (count - 1) - 0.5) : 0.0; };
  SpringMesh brush;
  brush.surface.V.resize(nx * nz * per_strand, 3);
  brush.stretch_springs.resize(nx * nz * segments, 2);
  brush.bend_springs.resize(nx * nz * (segments - 1), 2);
  brush.bend_middle.resize(nx * nz * (segments - 1));
  for (int s = 0; s < nx * nz; ++s) {
    const int first = s * per_strand;
    const double x = coordinate(size.x(), s / nz, nx), z = coordinate(size.y(), s % nz, nz);
    for (int k = 0; k < per_strand; ++k) brush.surface.V.row(first + k) = Vec3(x, -length * k / segments, z);
    for (int k = 0; k < segments; ++k) brush.stretch_springs.row(s * segments + k) << first + k, first + k + 1;
    for (int k = 0; k + 1 < segments; ++k) {
      brush.bend_springs.row(s * (segments - 1) + k) << first + k, first + k + 2;
      brush.bend_middle[s * (segments - 1) + k] = first + k + 1;
    }
  }
  return brush;
}

}  // namespace qnsim
