#include "tools/assets/closest_point.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace qnsim::assets {

Vec3 closestOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

ClosestPoint::ClosestPoint(SurfaceMesh mesh) : mesh_(std::move(mesh)) {
  lo_ = mesh_.V.colwise().minCoeff();
  double total = 0;
  for (Eigen::Index f = 0; f < mesh_.F.rows(); ++f)
    total += (mesh_.V.row(mesh_.F(f, 1)) - mesh_.V.row(mesh_.F(f, 0))).norm();
  cell_ = 2.0 * total / static_cast<double>(mesh_.F.rows());  // about two mean edges
  for (Eigen::Index f = 0; f < mesh_.F.rows(); ++f) {
    Vec3 lo = mesh_.V.row(mesh_.F(f, 0)), hi = lo;
    for (int k = 1; k < 3; ++k) {
      lo = lo.cwiseMin(Vec3(mesh_.V.row(mesh_.F(f, k))));
      hi = hi.cwiseMax(Vec3(mesh_.V.row(mesh_.F(f, k))));
    }
    const Eigen::Vector3i a = cellOf(lo), b = cellOf(hi);
    for (int i = a.x(); i <= b.x(); ++i)
      for (int j = a.y(); j <= b.y(); ++j)
        for (int k = a.z(); k <= b.z(); ++k) buckets_[key(i, j, k)].push_back(static_cast<int>(f));
  }
}

std::int64_t ClosestPoint::key(int i, int j, int k) const {
  constexpr std::int64_t kSpan = 1 << 20;  // cells per axis; offsets keep negative indices apart
  return ((static_cast<std::int64_t>(i) + kSpan / 2) * kSpan + (j + kSpan / 2)) * kSpan + (k + kSpan / 2);
}

Eigen::Vector3i ClosestPoint::cellOf(const Vec3& p) const {
  return ((p - lo_) / cell_).array().floor().cast<int>();
}

Vec3 ClosestPoint::operator()(const Vec3& p) const {
  const Eigen::Vector3i c = cellOf(p);
  Vec3 best = p;
  double best_d2 = std::numeric_limits<double>::infinity();
  // Search growing shells of cells; stop once the shell is farther away than the best hit.
  for (int r = 0; r < 64; ++r) {
    if (std::isfinite(best_d2) && (r - 1) * cell_ > std::sqrt(best_d2)) break;
    for (int i = -r; i <= r; ++i)
      for (int j = -r; j <= r; ++j)
        for (int k = -r; k <= r; ++k) {
          if (std::max({std::abs(i), std::abs(j), std::abs(k)}) != r) continue;
          const auto it = buckets_.find(key(c.x() + i, c.y() + j, c.z() + k));
          if (it == buckets_.end()) continue;
          for (int f : it->second) {
            const Vec3 q = closestOnTriangle(p, mesh_.V.row(mesh_.F(f, 0)), mesh_.V.row(mesh_.F(f, 1)), mesh_.V.row(mesh_.F(f, 2)));
            const double d2 = (q - p).squaredNorm();
            if (d2 < best_d2) {
              best_d2 = d2;
              best = q;
            }
          }
        }
  }
  return best;
}

}  // namespace qnsim::assets
