#include "core/mesh/voxel_cage.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/mesh/shapes.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {

struct Grid {
  Vec3 origin;
  double h = 0;  // cell size
  Eigen::Vector3i n;
  int flat(int i, int j, int k) const { return (i * n.y() + j) * n.z() + k; }
  int axis(double x, int a) const { return std::clamp(static_cast<int>(std::floor((x - origin[a]) / h)), 0, n[a] - 1); }
};

// The grid's cells that the surface passes through: points of each triangle at most half a cell apart,
// its corners among them, so that every surface vertex is in a marked cell.
void markSurfaceCells(const SurfaceMesh& s, const Grid& g, std::vector<char>& keep) {
  for (Eigen::Index f = 0; f < s.F.rows(); ++f) {
    const Vec3 a = s.V.row(s.F(f, 0)), b = s.V.row(s.F(f, 1)), c = s.V.row(s.F(f, 2));
    const double longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
    const int steps = std::max(1, static_cast<int>(std::ceil(2.0 * longest / g.h)));
    for (int i = 0; i <= steps; ++i)
      for (int j = 0; i + j <= steps; ++j) {
        const Vec3 p = a + (b - a) * (static_cast<double>(i) / steps) + (c - a) * (static_cast<double>(j) / steps);
        keep[g.flat(g.axis(p.x(), 0), g.axis(p.y(), 1), g.axis(p.z(), 2))] = 1;
      }
  }
}

// The cells whose centre is inside: a ray along +x through each row of centres, crossing parity. The rows
// are nudged off the centres by an irrational fraction of a cell so that no ray meets an edge or vertex
// of a grid-aligned surface.
void markInsideCells(const SurfaceMesh& s, const Grid& g, std::vector<char>& keep) {
  const double dy = 1e-6 * std::sqrt(2.0) * g.h, dz = 1e-6 * std::sqrt(3.0) * g.h;
  std::vector<std::vector<int>> rows(static_cast<size_t>(g.n.y()) * g.n.z());
  for (Eigen::Index f = 0; f < s.F.rows(); ++f) {
    Eigen::Vector3d lo = s.V.row(s.F(f, 0)), hi = lo;
    for (int c = 1; c < 3; ++c) lo = lo.cwiseMin(s.V.row(s.F(f, c)).transpose()), hi = hi.cwiseMax(s.V.row(s.F(f, c)).transpose());
    for (int j = g.axis(lo.y(), 1); j <= g.axis(hi.y(), 1); ++j)
      for (int k = g.axis(lo.z(), 2); k <= g.axis(hi.z(), 2); ++k) rows[j * g.n.z() + k].push_back(static_cast<int>(f));
  }
  std::vector<double> hits;
  for (int j = 0; j < g.n.y(); ++j)
    for (int k = 0; k < g.n.z(); ++k) {
      const double y = g.origin.y() + (j + 0.5) * g.h + dy, z = g.origin.z() + (k + 0.5) * g.h + dz;
      hits.clear();
      for (int f : rows[j * g.n.z() + k]) {
        const Vec3 a = s.V.row(s.F(f, 0)), b = s.V.row(s.F(f, 1)), c = s.V.row(s.F(f, 2));
        // Barycentric coordinates of (y, z) in the triangle's projection on the yz plane.
        const double det = (b.y() - a.y()) * (c.z() - a.z()) - (c.y() - a.y()) * (b.z() - a.z());
        if (det == 0) continue;
        const double u = ((y - a.y()) * (c.z() - a.z()) - (c.y() - a.y()) * (z - a.z())) / det;
        const double v = ((b.y() - a.y()) * (z - a.z()) - (y - a.y()) * (b.z() - a.z())) / det;
        if (u < 0 || v < 0 || u + v > 1) continue;
        hits.push_back(a.x() + u * (b.x() - a.x()) + v * (c.x() - a.x()));
      }
      std::sort(hits.begin(), hits.end());
      for (size_t h = 0; h + 1 < hits.size(); h += 2)
        for (int i = 0; i < g.n.x(); ++i) {
          const double x = g.origin.x() + (i + 0.5) * g.h;
          if (x > hits[h] && x < hits[h + 1]) keep[g.flat(i, j, k)] = 1;
        }
    }
}

}  // namespace

TetMesh voxelCage(const SurfaceMesh& surface, int cells) {
  if (cells < 2 || cells > 64) throw error("a cage needs 2 to 64 cells along its longest side, not ", cells);
  if (surface.V.rows() == 0 || surface.F.rows() == 0) throw error("a cage needs a surface with triangles");
  const Vec3 lo = surface.V.colwise().minCoeff(), hi = surface.V.colwise().maxCoeff(), size = hi - lo;
  Grid g;
  g.h = size.maxCoeff() / cells;
  if (!(g.h > 0)) throw error("a cage needs a surface of positive size");
  for (int a = 0; a < 3; ++a) g.n[a] = std::max(1, static_cast<int>(std::ceil(size[a] / g.h - 1e-9)));
  g.origin = lo - 0.5 * (g.n.cast<double>() * g.h - size);  // the grid centred on the surface
  std::vector<char> keep(static_cast<size_t>(g.n.prod()), 0);
  markSurfaceCells(surface, g, keep);
  markInsideCells(surface, g, keep);
  return makeCellGrid(g.origin, g.n.cast<double>() * g.h, g.n, [&](int i, int j, int k) { return keep[g.flat(i, j, k)] != 0; });
}

}  // namespace qnsim
