#include "core/math/exact_predicates.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace qnsim {
namespace {

// An exact sum of doubles as a nonoverlapping expansion: components in increasing magnitude, no zeros,
// their sum the exact value (Shewchuk 1997, Grow-Expansion with zero elimination). This file is
// compiled without contraction of a * b + c into a fused multiply-add, which would break the
// error-free transformations (core/CMakeLists.txt).
class ExactSum {
 public:
  void add(double b) {
    int kept = 0;
    for (int i = 0; i < size_; ++i) {
      const double s = b + terms_[i], bv = s - b, error = (b - (s - bv)) + (terms_[i] - bv);  // Two-Sum
      if (error != 0) terms_[kept++] = error;
      b = s;
    }
    if (b != 0) terms_[kept++] = b;
    size_ = kept;
  }
  // x y z exactly, as four doubles (Two-Product of x y, then of each part with z).
  void addProduct(double x, double y, double z) {
    const double p = x * y, pe = std::fma(x, y, -p);
    const double q = p * z, qe = std::fma(p, z, -q), r = pe * z, re = std::fma(pe, z, -r);
    add(qe), add(re), add(r), add(q);
  }
  void addProduct(double x, double y) {
    const double p = x * y;
    add(std::fma(x, y, -p)), add(p);
  }
  // The sign of the sum: that of its largest component.
  int sign() const { return size_ == 0 ? 0 : (terms_[size_ - 1] > 0 ? 1 : -1); }

 private:
  // A sum of n doubles needs at most n components; orient3d adds 96.
  std::array<double, 100> terms_{};
  int size_ = 0;
};

int signOf(double v) { return (v > 0) - (v < 0); }

// det[p, q, r] (rows) added exactly with the sign `s`: its six products.
void addDet3(ExactSum& sum, double s, const Vec3& p, const Vec3& q, const Vec3& r) {
  sum.addProduct(s * p.x(), q.y(), r.z()), sum.addProduct(-s * p.x(), q.z(), r.y());
  sum.addProduct(s * p.y(), q.z(), r.x()), sum.addProduct(-s * p.y(), q.x(), r.z());
  sum.addProduct(s * p.z(), q.x(), r.y()), sum.addProduct(-s * p.z(), q.y(), r.x());
}

int orient3dExact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  // det[b - a, c - a, d - a] = det[b, c, d] - det[a, c, d] + det[a, b, d] - det[a, b, c] (the 4 x 4
  // determinant with a column of ones, expanded along it): 24 products of three coordinates.
  ExactSum sum;
  addDet3(sum, 1, b, c, d), addDet3(sum, -1, a, c, d), addDet3(sum, 1, a, b, d), addDet3(sum, -1, a, b, c);
  return sum.sign();
}

// Which two coordinates to keep when projecting the plane of (a, b, c) to 2D: those the triangle's
// projection has an area in, exactly; -1 for a triangle without area.
int droppedAxis(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = (b - a).cross(c - a).cwiseAbs();
  int order[3] = {0, 1, 2};
  std::sort(order, order + 3, [&](int i, int j) { return n[i] > n[j]; });
  for (int axis : order) {
    const auto keep = [axis](const Vec3& p) { return Vec2(p[(axis + 1) % 3], p[(axis + 2) % 3]); };
    if (orient2d(keep(a), keep(b), keep(c)) != 0) return axis;
  }
  return -1;
}

// Whether the closed 2D segments p q and r s share a point.
bool segmentsMeet2d(const Vec2& p, const Vec2& q, const Vec2& r, const Vec2& s) {
  const int o1 = orient2d(p, q, r), o2 = orient2d(p, q, s), o3 = orient2d(r, s, p), o4 = orient2d(r, s, q);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  // Touching or collinear: an end on the other segment (between its ends, coordinate-wise).
  const auto within = [](const Vec2& u, const Vec2& v, const Vec2& w) {
    return std::min(u.x(), v.x()) <= w.x() && w.x() <= std::max(u.x(), v.x()) && std::min(u.y(), v.y()) <= w.y() &&
           w.y() <= std::max(u.y(), v.y());
  };
  return (o1 == 0 && within(p, q, r)) || (o2 == 0 && within(p, q, s)) || (o3 == 0 && within(r, s, p)) || (o4 == 0 && within(r, s, q));
}

bool insideTriangle2d(const Vec2& p, const Vec2& a, const Vec2& b, const Vec2& c) {
  const int o1 = orient2d(a, b, p), o2 = orient2d(b, c, p), o3 = orient2d(c, a, p);
  return (o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0);
}

bool coplanarSegmentMeetsTriangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  const int axis = droppedAxis(a, b, c);
  if (axis < 0) return false;
  const auto keep = [axis](const Vec3& v) { return Vec2(v[(axis + 1) % 3], v[(axis + 2) % 3]); };
  const Vec2 p2 = keep(p), q2 = keep(q), a2 = keep(a), b2 = keep(b), c2 = keep(c);
  return insideTriangle2d(p2, a2, b2, c2) || insideTriangle2d(q2, a2, b2, c2) || segmentsMeet2d(p2, q2, a2, b2) ||
         segmentsMeet2d(p2, q2, b2, c2) || segmentsMeet2d(p2, q2, c2, a2);
}

}  // namespace

int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 u = b - a, v = c - a, w = d - a;
  const double det = u.x() * (v.y() * w.z() - v.z() * w.y()) + u.y() * (v.z() * w.x() - v.x() * w.z()) + u.z() * (v.x() * w.y() - v.y() * w.x());
  const double permanent = std::abs(u.x()) * (std::abs(v.y() * w.z()) + std::abs(v.z() * w.y())) +
                           std::abs(u.y()) * (std::abs(v.z() * w.x()) + std::abs(v.x() * w.z())) +
                           std::abs(u.z()) * (std::abs(v.x() * w.y()) + std::abs(v.y() * w.x()));
  // Shewchuk's bound for this evaluation is about 7.8e-16 times the permanent; ten times it is safe.
  if (std::abs(det) > 1e-14 * permanent) return signOf(det);
  return orient3dExact(a, b, c, d);
}

int orient2d(const Vec2& a, const Vec2& b, const Vec2& c) {
  const double left = (b.x() - a.x()) * (c.y() - a.y()), right = (b.y() - a.y()) * (c.x() - a.x()), det = left - right;
  if (std::abs(det) > 1e-14 * (std::abs(left) + std::abs(right))) return signOf(det);
  ExactSum sum;  // the six products of the expanded determinant
  sum.addProduct(b.x(), c.y()), sum.addProduct(-b.x(), a.y()), sum.addProduct(-a.x(), c.y());
  sum.addProduct(-b.y(), c.x()), sum.addProduct(b.y(), a.x()), sum.addProduct(a.y(), c.x());
  return sum.sign();
}

bool segmentMeetsTriangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  const int sp = orient3d(a, b, c, p), sq = orient3d(a, b, c, q);
  if (sp * sq > 0) return false;  // both ends strictly on one side
  if (sp == 0 && sq == 0) return coplanarSegmentMeetsTriangle(p, q, a, b, c);
  // The line crosses the plane within the segment; it meets the triangle where it passes on one side
  // of all three edges' lines (or on them).
  const int e0 = orient3d(p, q, a, b), e1 = orient3d(p, q, b, c), e2 = orient3d(p, q, c, a);
  if (e0 == 0 && e1 == 0 && e2 == 0) return false;  // a triangle without area
  return (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0);
}

}  // namespace qnsim
