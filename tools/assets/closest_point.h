#pragma once
// Closest points on a fixed triangle mesh, through a uniform grid of triangle buckets. Used to
// project remeshed vertices back onto a scanned surface (the bunny).
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "qnsim/mesh.h"

namespace qnsim::assets {

class ClosestPoint {
 public:
  explicit ClosestPoint(SurfaceMesh mesh);
  Vec3 operator()(const Vec3& p) const;

 private:
  std::int64_t key(int i, int j, int k) const;
  Eigen::Vector3i cellOf(const Vec3& p) const;
  SurfaceMesh mesh_;
  Vec3 lo_;
  double cell_ = 0;
  std::unordered_map<std::int64_t, std::vector<int>> buckets_;
};

// Closest point to p on triangle (a, b, c) (Ericson, Real-Time Collision Detection, 5.1.5).
Vec3 closestOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace qnsim::assets
