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

// Votes for the cells whose centre is inside by the crossings of rays along axis `a` through each row of
// centres (odd: inside). The rows are nudged off the centres by an irrational fraction of a cell so that
// no ray meets an edge or vertex of a grid-aligned surface.
void voteAlong(int a, const SurfaceMesh& s, const Grid& g, std::vector<char>& votes) {
  const int b = (a + 1) % 3, c = (a + 2) % 3;  // the row's coordinates
  const double db = 1e-6 * std::sqrt(2.0) * g.h, dc = 1e-6 * std::sqrt(3.0) * g.h;
  std::vector<std::vector<int>> rows(static_cast<size_t>(g.n[b]) * g.n[c]);
  for (Eigen::Index f = 0; f < s.F.rows(); ++f) {
    Vec3 lo = s.V.row(s.F(f, 0)), hi = lo;
    for (int k = 1; k < 3; ++k) lo = lo.cwiseMin(s.V.row(s.F(f, k)).transpose()), hi = hi.cwiseMax(s.V.row(s.F(f, k)).transpose());
    for (int i = g.axis(lo[b], b); i <= g.axis(hi[b], b); ++i)
      for (int j = g.axis(lo[c], c); j <= g.axis(hi[c], c); ++j) rows[i * g.n[c] + j].push_back(static_cast<int>(f));
  }
  std::vector<double> hits;
  for (int i = 0; i < g.n[b]; ++i)
    for (int j = 0; j < g.n[c]; ++j) {
      const double y = g.origin[b] + (i + 0.5) * g.h + db, z = g.origin[c] + (j + 0.5) * g.h + dc;
      hits.clear();
      for (int f : rows[i * g.n[c] + j]) {
        const Vec3 p = s.V.row(s.F(f, 0)), q = s.V.row(s.F(f, 1)), r = s.V.row(s.F(f, 2));
        // Barycentric coordinates of (y, z) in the triangle's projection along the ray.
        const double det = (q[b] - p[b]) * (r[c] - p[c]) - (r[b] - p[b]) * (q[c] - p[c]);
        if (det == 0) continue;
        const double u = ((y - p[b]) * (r[c] - p[c]) - (r[b] - p[b]) * (z - p[c])) / det;
        const double v = ((q[b] - p[b]) * (z - p[c]) - (y - p[b]) * (q[c] - p[c])) / det;
        if (u < 0 || v < 0 || u + v > 1) continue;
        hits.push_back(p[a] + u * (q[a] - p[a]) + v * (r[a] - p[a]));
      }
      std::sort(hits.begin(), hits.end());
      for (size_t h = 0; h + 1 < hits.size(); h += 2)
        for (int k = 0; k < g.n[a]; ++k) {
          const double x = g.origin[a] + (k + 0.5) * g.h;
          if (x <= hits[h] || x >= hits[h + 1]) continue;
          Eigen::Vector3i cell;
          cell[a] = k, cell[b] = i, cell[c] = j;
          ++votes[g.flat(cell.x(), cell.y(), cell.z())];
        }
    }
}

// Inside where rays along at least two of the three axes say so: all three agree for a closed surface,
// and a hole or a self-intersection misleads the rays through it only (Nooruddin and Turk 2003).
void markInsideCells(const SurfaceMesh& s, const Grid& g, std::vector<char>& keep) {
  std::vector<char> votes(keep.size(), 0);
  for (int a = 0; a < 3; ++a) voteAlong(a, s, g, votes);
  for (size_t i = 0; i < keep.size(); ++i) keep[i] |= votes[i] >= 2;
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
