#include "tools/assets/marching_tets.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace qnsim::assets {
namespace {

// Kuhn split of the unit cube into 6 tets sharing the diagonal 0-7; every cube uses the same split,
// so the faces of neighbouring cubes match. Corner c has offset (c & 1, (c >> 1) & 1, (c >> 2) & 1).
constexpr std::array<std::array<int, 4>, 6> kCubeTets = {{
    {0, 1, 3, 7}, {0, 3, 2, 7}, {0, 2, 6, 7}, {0, 6, 4, 7}, {0, 4, 5, 7}, {0, 5, 1, 7},
}};

struct Sampler {
  int nx, ny, nz;
  Vec3 lo;
  double h;
  std::vector<double> value;  // per grid node, never exactly zero

  std::int64_t index(int i, int j, int k) const { return (static_cast<std::int64_t>(k) * ny + j) * nx + i; }
  Vec3 position(std::int64_t n) const {
    const auto i = n % nx, j = (n / nx) % ny, k = n / (static_cast<std::int64_t>(nx) * ny);
    return lo + h * Vec3(static_cast<double>(i), static_cast<double>(j), static_cast<double>(k));
  }
};

Sampler sample(const Sdf& f, const Grid& grid) {
  Sampler s;
  s.h = grid.spacing;
  s.lo = grid.lo;
  const Vec3 cells = ((grid.hi - grid.lo) / grid.spacing).array().ceil();
  s.nx = static_cast<int>(cells.x()) + 1;
  s.ny = static_cast<int>(cells.y()) + 1;
  s.nz = static_cast<int>(cells.z()) + 1;
  s.value.resize(static_cast<std::size_t>(s.nx) * s.ny * s.nz);
  // A value of exactly zero would put a vertex on a grid node and create zero-area triangles.
  const double nudge = 1e-9 * grid.spacing;
  for (std::int64_t n = 0; n < static_cast<std::int64_t>(s.value.size()); ++n) {
    const double v = f(s.position(n));
    s.value[n] = std::abs(v) < nudge ? nudge : v;
  }
  return s;
}

class Extractor {
 public:
  explicit Extractor(const Sampler& s) : s_(s) {}

  void tet(const std::array<std::int64_t, 4>& node) {
    std::array<int, 4> in{}, out{};
    int n_in = 0, n_out = 0;
    for (int c = 0; c < 4; ++c) (s_.value[node[c]] < 0 ? in[n_in++] : out[n_out++]) = c;
    if (n_in == 0 || n_out == 0) return;
    Vec3 in_mean = Vec3::Zero(), out_mean = Vec3::Zero();
    for (int c = 0; c < n_in; ++c) in_mean += s_.position(node[in[c]]) / n_in;
    for (int c = 0; c < n_out; ++c) out_mean += s_.position(node[out[c]]) / n_out;
    const Vec3 outward = out_mean - in_mean;
    if (n_in == 1 || n_out == 1) {
      const bool single_in = n_in == 1;
      const int apex = single_in ? in[0] : out[0];
      const auto& others = single_in ? out : in;
      emit({edge(node[apex], node[others[0]]), edge(node[apex], node[others[1]]), edge(node[apex], node[others[2]])}, outward);
      return;
    }
    // Two in, two out: the cut is a quad over the four crossing edges, in cyclic order.
    const int a = edge(node[in[0]], node[out[0]]), b = edge(node[in[0]], node[out[1]]);
    const int c = edge(node[in[1]], node[out[1]]), d = edge(node[in[1]], node[out[0]]);
    emit({a, b, c}, outward);
    emit({a, c, d}, outward);
  }

  SurfaceMesh result() const {
    SurfaceMesh mesh;
    mesh.V.resize(static_cast<Eigen::Index>(points_.size()), 3);
    for (std::size_t i = 0; i < points_.size(); ++i) mesh.V.row(static_cast<Eigen::Index>(i)) = points_[i];
    mesh.F.resize(static_cast<Eigen::Index>(faces_.size()), 3);
    for (std::size_t i = 0; i < faces_.size(); ++i)
      mesh.F.row(static_cast<Eigen::Index>(i)) << faces_[i][0], faces_[i][1], faces_[i][2];
    return mesh;
  }

 private:
  int edge(std::int64_t p, std::int64_t q) {
    if (p > q) std::swap(p, q);
    const auto key = p * static_cast<std::int64_t>(s_.value.size()) + q;
    const auto [it, inserted] = edge_vertex_.try_emplace(key, static_cast<int>(points_.size()));
    if (inserted) {
      const double vp = s_.value[p], vq = s_.value[q];
      const double t = vp / (vp - vq);
      points_.push_back(s_.position(p) + t * (s_.position(q) - s_.position(p)));
    }
    return it->second;
  }

  void emit(std::array<int, 3> f, const Vec3& outward) {
    const Vec3 n = (points_[f[1]] - points_[f[0]]).cross(points_[f[2]] - points_[f[0]]);
    if (n.dot(outward) < 0) std::swap(f[1], f[2]);
    faces_.push_back(f);
  }

  const Sampler& s_;
  std::unordered_map<std::int64_t, int> edge_vertex_;
  std::vector<Vec3> points_;
  std::vector<std::array<int, 3>> faces_;
};

}  // namespace

SurfaceMesh marchingTets(const Sdf& f, const Grid& grid) {
  const Sampler s = sample(f, grid);
  Extractor extractor(s);
  for (int k = 0; k + 1 < s.nz; ++k)
    for (int j = 0; j + 1 < s.ny; ++j)
      for (int i = 0; i + 1 < s.nx; ++i) {
        std::array<std::int64_t, 8> corner;
        for (int c = 0; c < 8; ++c) corner[c] = s.index(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
        for (const auto& t : kCubeTets) extractor.tet({corner[t[0]], corner[t[1]], corner[t[2]], corner[t[3]]});
      }
  return extractor.result();
}

}  // namespace qnsim::assets

