#include "core/math/proximity.h"

#include <algorithm>
#include <cmath>

namespace qnsim {
namespace {

double clamp01(double v) { return std::clamp(v, 0.0, 1.0); }

// The closest point of the segment a b to p, as the parameter along it.
double closestOnSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 d = b - a;
  const double length2 = d.squaredNorm();
  return length2 > 0 ? clamp01((p - a).dot(d) / length2) : 0.0;
}

// The closest of the three edges' closest points, for a triangle without area.
Vec3 closestEdgeWeights(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const double s = closestOnSegment(p, a, b), t = closestOnSegment(p, b, c), u = closestOnSegment(p, c, a);
  const Vec3 candidates[3] = {Vec3(1 - s, s, 0), Vec3(0, 1 - t, t), Vec3(u, 0, 1 - u)};
  const auto distance2 = [&](const Vec3& w) { return (p - (w[0] * a + w[1] * b + w[2] * c)).squaredNorm(); };
  return *std::min_element(candidates, candidates + 3, [&](const Vec3& l, const Vec3& r) { return distance2(l) < distance2(r); });
}

}  // namespace

Vec3 closestPointWeights(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return {1, 0, 0};  // vertex region a
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return {0, 1, 0};  // vertex region b
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {  // edge region ab
    const double v = d1 / (d1 - d3);
    return {1 - v, v, 0};
  }
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return {0, 0, 1};  // vertex region c
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {  // edge region ac
    const double w = d2 / (d2 - d6);
    return {1 - w, 0, w};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {  // edge region bc
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {0, 1 - w, w};
  }
  const double sum = va + vb + vc;  // twice the area squared, times the projection's weights
  if (!(sum > 0)) return closestEdgeWeights(p, a, b, c);
  return {va / sum, vb / sum, vc / sum};
}

Vec2 closestSegmentParameters(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  if (a == 0 && e == 0) return {0, 0};
  if (a == 0) return {0, clamp01(f / e)};
  const double c = d1.dot(r);
  if (e == 0) return {clamp01(-c / a), 0};
  const double b = d1.dot(d2), denominator = a * e - b * b;  // >= 0, zero for parallel segments
  double s = denominator > 1e-14 * a * e ? clamp01((b * f - c * e) / denominator) : 0.0;
  double t = (b * s + f) / e;
  if (t < 0)
    t = 0, s = clamp01(-c / a);
  else if (t > 1)
    t = 1, s = clamp01((b - c) / a);
  return {s, t};
}

double planeHeight(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Vec12* gradient) {
  const Vec3 e1 = b - a, e2 = c - a, m = e1.cross(e2), r = p - a;
  const double area2 = m.norm();
  const Vec3 n = m / area2;
  const double h = n.dot(r);
  if (gradient) {
    // dh = n . dr + r . dn with dn = (I - n n^T) dm / |m| and dm = de1 x e2 + e1 x de2.
    const Vec3 w = (r - h * n) / area2;
    const Vec3 db = e2.cross(w), dc = w.cross(e1);
    *gradient << n, -n - db - dc, db, dc;
  }
  return h;
}

double lineHeight(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec12* gradient) {
  const Vec3 e1 = p1 - p0, e2 = q1 - q0, m = e1.cross(e2), r = p0 - q0;
  const double length = m.norm();
  const Vec3 n = m / length;
  const double h = n.dot(r);
  if (gradient) {  // as planeHeight: dh = n . dr + w . dm with w = (r - h n) / |m|, dm = de1 x e2 + e1 x de2
    const Vec3 w = (r - h * n) / length;
    const Vec3 d1 = e2.cross(w), d2 = w.cross(e1);
    *gradient << n - d1, d1, -n - d2, d2;
  }
  return h;
}

double segmentDistance(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec12* gradient) {
  return segmentDistance(closestSegmentParameters(p0, p1, q0, q1), p0, p1, q0, q1, gradient);
}

double segmentDistance(const Vec2& st, const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec12* gradient) {
  const double s = st[0], t = st[1];
  const Vec3 d = (p0 + s * (p1 - p0)) - (q0 + t * (q1 - q0));
  const double distance = d.norm();
  if (gradient) {
    const Vec3 u = distance > 0 ? Vec3(d / distance) : Vec3::Zero();
    *gradient << (1 - s) * u, s * u, -(1 - t) * u, -t * u;
  }
  return distance;
}

double pointTriangleDistance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Vec12* gradient) {
  const Vec3 w = closestPointWeights(p, a, b, c);
  const Vec3 d = p - (w[0] * a + w[1] * b + w[2] * c);
  const double distance = d.norm();
  if (gradient) {
    const Vec3 u = distance > 0 ? Vec3(d / distance) : Vec3::Zero();
    *gradient << u, -w[0] * u, -w[1] * u, -w[2] * u;
  }
  return distance;
}

bool segmentCrossesTriangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  // Signed volumes: the ends lie on opposite sides of the plane, and the line passes inside all three edges.
  const auto volume = [](const Vec3& u, const Vec3& v, const Vec3& w, const Vec3& x) { return (v - u).cross(w - u).dot(x - u); };
  const double sp = volume(a, b, c, p), sq = volume(a, b, c, q);
  if ((sp > 0 && sq > 0) || (sp < 0 && sq < 0) || (sp == 0 && sq == 0)) return false;
  const double e0 = volume(p, q, a, b), e1 = volume(p, q, b, c), e2 = volume(p, q, c, a);
  return (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0);
}

}  // namespace qnsim
