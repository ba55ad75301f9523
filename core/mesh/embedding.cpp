#include "core/mesh/embedding.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/collision/box_grid.h"
#include "core/common/parallel.h"
#include "core/math/proximity.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {

// Tets by the cells of a regular grid their bounding boxes overlap.
class TetGrid {
 public:
  TetGrid(const MatX3& V, const TetIndices& T) {
    lo_ = V.colwise().minCoeff().transpose();
    const Vec3 extent = V.colwise().maxCoeff().transpose() - lo_;
    const double volume = std::max(extent.prod(), 1e-30);
    cell_ = std::max(std::cbrt(volume / std::max<Eigen::Index>(T.rows(), 1)) * 1.5, 1e-9);
    for (int k = 0; k < 3; ++k) dims_[k] = std::clamp(static_cast<int>(extent[k] / cell_) + 1, 1, 256);
    cells_.resize(static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2]);
    for (Eigen::Index t = 0; t < T.rows(); ++t) {
      Vec3 a = V.row(T(t, 0)), b = a;
      for (int c = 1; c < 4; ++c) a = a.cwiseMin(V.row(T(t, c)).transpose()), b = b.cwiseMax(V.row(T(t, c)).transpose());
      const Eigen::Vector3i i0 = index(a), i1 = index(b);
      for (int x = i0[0]; x <= i1[0]; ++x)
        for (int y = i0[1]; y <= i1[1]; ++y)
          for (int z = i0[2]; z <= i1[2]; ++z) cells_[flat(x, y, z)].push_back(static_cast<int>(t));
    }
  }
  // The tets whose boxes may hold p (none outside the grid).
  const std::vector<int>& near(const Vec3& p) const {
    static const std::vector<int> none;
    const Vec3 g = (p - lo_) / cell_;
    for (int k = 0; k < 3; ++k)
      if (!(g[k] >= 0 && g[k] < dims_[k])) return none;
    const Eigen::Vector3i i = index(p);
    return cells_[flat(i[0], i[1], i[2])];
  }

 private:
  Eigen::Vector3i index(const Vec3& p) const {
    Eigen::Vector3i i;
    for (int k = 0; k < 3; ++k) i[k] = std::clamp(static_cast<int>(std::floor((p[k] - lo_[k]) / cell_)), 0, dims_[k] - 1);
    return i;
  }
  std::size_t flat(int x, int y, int z) const { return (static_cast<std::size_t>(x) * dims_[1] + y) * dims_[2] + z; }
  Vec3 lo_;
  double cell_ = 1;
  int dims_[3] = {1, 1, 1};
  std::vector<std::vector<int>> cells_;
};

// Barycentric weights of p in tet t (summing to 1; all >= 0 inside).
Eigen::Vector4d barycentric(const MatX3& V, const TetIndices& T, Eigen::Index t, const Vec3& p) {
  const Vec3 x0 = V.row(T(t, 0));
  Mat3 D;
  D << V.row(T(t, 1)).transpose() - x0, V.row(T(t, 2)).transpose() - x0, V.row(T(t, 3)).transpose() - x0;
  const Vec3 l = D.partialPivLu().solve(p - x0);
  return {1.0 - l.sum(), l[0], l[1], l[2]};
}

// The boundary faces of the tets with the tet each belongs to.
struct BoundaryFace {
  Eigen::Vector3i v;
  int tet;
};
std::vector<BoundaryFace> boundaryWithTets(const TetIndices& T) {
  std::map<std::array<int, 3>, std::pair<int, int>> faces;  // sorted corners -> (tet, count)
  for (Eigen::Index t = 0; t < T.rows(); ++t)
    for (const auto& f : kTetFaces) {
      std::array<int, 3> key{T(t, f[0]), T(t, f[1]), T(t, f[2])};
      std::sort(key.begin(), key.end());
      auto [it, inserted] = faces.emplace(key, std::pair(static_cast<int>(t), 0));
      ++it->second.second;
    }
  std::vector<BoundaryFace> out;
  for (const auto& [key, value] : faces)
    if (value.second == 1) out.push_back({Eigen::Vector3i(key[0], key[1], key[2]), value.first});
  return out;
}

// The boundary face nearest a point, by a grid of the faces' boxes: a face within r of p has its box
// within the cube of half-size r about p. The same face as a search of every face in order (the first
// of equally near ones).
class NearestFace {
 public:
  NearestFace(const std::vector<BoundaryFace>& faces, const MatX3& V) : faces_(faces), V_(V) {
    boxes_.reserve(faces.size());
    double extent = 0;
    for (const BoundaryFace& f : faces) {
      Aabb box;
      for (int k = 0; k < 3; ++k) box.extend(Vec3(V.row(f.v[k])));
      boxes_.push_back(box);
      extent += box.sizes().maxCoeff();
    }
    cell_ = std::max(extent / std::max<std::size_t>(faces.size(), 1), 1e-9);
    reach_ = (V.colwise().maxCoeff() - V.colwise().minCoeff()).norm() + cell_;
    grid_.build(boxes_, cell_);
  }
  // The index of the nearest face, and its distance.
  int nearest(const Vec3& p, double& distance) const {
    std::vector<int> hits;
    double r = cell_;
    for (; hits.empty() && r < 2 * reach_; r *= 2) grid_.query(Aabb(p.array() - r, p.array() + r), hits);
    distance = std::numeric_limits<double>::infinity();
    for (int f : hits) distance = std::min(distance, this->distance(p, f));
    if (hits.empty() || !std::isfinite(distance)) return inOrder(p, every(), distance);  // p far beyond, or NaN
    const double r_exact = distance * (1 + 1e-9) + 1e-12;  // every face as near: spare for round-off
    hits.clear();
    grid_.query(Aabb(p.array() - r_exact, p.array() + r_exact), hits);
    std::sort(hits.begin(), hits.end());
    return inOrder(p, hits, distance);
  }

 private:
  double distance(const Vec3& p, int f) const {
    const Eigen::Vector3i& v = faces_[f].v;
    return pointTriangleDistance(p, V_.row(v[0]), V_.row(v[1]), V_.row(v[2]));
  }
  std::vector<int> every() const {
    std::vector<int> all(faces_.size());
    for (std::size_t f = 0; f < all.size(); ++f) all[f] = static_cast<int>(f);
    return all;
  }
  int inOrder(const Vec3& p, const std::vector<int>& candidates, double& best) const {
    best = std::numeric_limits<double>::infinity();
    int face = candidates.empty() ? 0 : candidates.front();
    for (int f : candidates) {
      const double d = distance(p, f);
      if (d < best) best = d, face = f;
    }
    return face;
  }

  const std::vector<BoundaryFace>& faces_;
  const MatX3& V_;
  std::vector<Aabb> boxes_;
  BoxGrid grid_;
  double cell_ = 1, reach_ = 1;
};

}  // namespace

RenderMesh embedSurface(const RenderSurface& surface, const MatX3& V, const TetIndices& T, int first_vertex, const std::string& source) {
  if (T.rows() == 0) throw error("render mesh '", source, "': the body has no tets to carry it");
  const int n = static_cast<int>(surface.V.rows());
  RenderMesh out;
  out.source = source;
  out.F = surface.F;
  out.uv = surface.UV;
  out.tet_vertices.resize(n);
  out.weights.resize(n);
  out.outside.assign(n, 0.0);
  std::vector<int> tet_of(n, -1);
  const TetGrid grid(V, T);
  parallelFor(n, 256, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      const Vec3 p = surface.V.row(i);
      double best = -std::numeric_limits<double>::infinity();
      for (int t : grid.near(p)) {
        const Eigen::Vector4d w = barycentric(V, T, t, p);
        if (w.minCoeff() > best) best = w.minCoeff(), tet_of[i] = t, out.weights[i] = w;
      }
      if (best < -1e-9) tet_of[i] = -1;  // in no tet: bound to the nearest boundary face's below
    }
  });
  // Vertices outside the cage: the tet of the nearest boundary face.
  std::vector<int> outside;
  for (int i = 0; i < n; ++i)
    if (tet_of[i] < 0) outside.push_back(i);
  if (!outside.empty()) {
    const std::vector<BoundaryFace> faces = boundaryWithTets(T);
    const NearestFace nearest(faces, V);
    parallelFor(static_cast<int>(outside.size()), 16, [&](int begin, int end) {
      for (int k = begin; k < end; ++k) {
        const int i = outside[k];
        const Vec3 p = surface.V.row(i);
        tet_of[i] = faces[nearest.nearest(p, out.outside[i])].tet;
        out.weights[i] = barycentric(V, T, tet_of[i], p);
      }
    });
    const double size = (V.colwise().maxCoeff() - V.colwise().minCoeff()).norm();
    const auto worst = std::max_element(out.outside.begin(), out.outside.end());
    if (*worst > 0.1 * size)
      throw error("render mesh '", source, "': vertex ", worst - out.outside.begin(), " lies ", *worst,
                  " m outside the body's tets (more than a tenth of the body's size, ", size,
                  " m); is it placed like the mesh (the same scale, rotate and translate)?");
  }
  for (int i = 0; i < n; ++i) out.tet_vertices[i] = T.row(tet_of[i]).transpose().array() + first_vertex;
  return out;
}

MatX3 embeddedPositions(const RenderMesh& mesh, const VecX& x) {
  MatX3 P(mesh.vertexCount(), 3);
  for (int i = 0; i < mesh.vertexCount(); ++i) {
    const Eigen::Vector4i& k = mesh.tet_vertices[i];
    const Eigen::Vector4d& w = mesh.weights[i];
    P.row(i) = (w[0] * vertex(x, k[0]) + w[1] * vertex(x, k[1]) + w[2] * vertex(x, k[2]) + w[3] * vertex(x, k[3])).transpose();
  }
  return P;
}

}  // namespace qnsim
