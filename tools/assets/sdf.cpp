#include "tools/assets/sdf.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <utility>

namespace qnsim::assets {

Sdf sphere(const Vec3& center, double radius) {
  return [=](const Vec3& p) { return (p - center).norm() - radius; };
}

Sdf ellipsoid(const Vec3& center, const Vec3& radii) {
  return orientedEllipsoid(center, Mat3::Identity(), radii);
}

Sdf orientedEllipsoid(const Vec3& center, const Mat3& axes, const Vec3& radii) {
  // Quilez's bound: k0 (k0 - 1) / k1 with k0 = |q / r|, k1 = |q / r^2|. Exact on the surface.
  const Mat3 to_local = axes.transpose();
  return [=](const Vec3& p) {
    const Vec3 q = to_local * (p - center);
    const double k0 = q.cwiseQuotient(radii).norm();
    const double k1 = q.cwiseQuotient(radii.cwiseProduct(radii)).norm();
    if (k1 < 1e-300) return -radii.minCoeff();
    return k0 * (k0 - 1.0) / k1;
  };
}

Sdf roundCone(const Vec3& a, const Vec3& b, double ra, double rb) {
  // Linear interpolation of the radius along the closest segment point: not an exact distance for
  // strongly tapered cones, but smooth and sign-correct, which is all the mesher relies on.
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  return [=](const Vec3& p) {
    const double t = std::clamp((p - a).dot(ab) / len2, 0.0, 1.0);
    return (p - (a + t * ab)).norm() - (ra + t * (rb - ra));
  };
}

Sdf roundBox(const Vec3& center, const Mat3& axes, const Vec3& half, double rounding) {
  const Mat3 to_local = axes.transpose();
  const Vec3 inner = half - Vec3::Constant(rounding);
  return [=](const Vec3& p) {
    const Vec3 q = (to_local * (p - center)).cwiseAbs() - inner;
    return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0) - rounding;
  };
}

Sdf torusY(const Vec3& center, double major_radius, double minor_radius) {
  return [=](const Vec3& p) {
    const Vec3 q = p - center;
    const double ring = std::hypot(q.x(), q.z()) - major_radius;
    return std::hypot(ring, q.y()) - minor_radius;
  };
}

namespace {
double smin(double a, double b, double k) {
  const double h = std::clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
  return b + (a - b) * h - k * h * (1.0 - h);
}
}  // namespace

Sdf smoothUnion(std::vector<Sdf> parts, double k) {
  return [parts = std::move(parts), k](const Vec3& p) {
    double d = parts.front()(p);
    for (std::size_t i = 1; i < parts.size(); ++i) d = smin(d, parts[i](p), k);
    return d;
  };
}

Sdf unite(std::vector<Sdf> parts) {
  return [parts = std::move(parts)](const Vec3& p) {
    double d = parts.front()(p);
    for (std::size_t i = 1; i < parts.size(); ++i) d = std::min(d, parts[i](p));
    return d;
  };
}

Sdf smoothSubtract(Sdf base, Sdf cut, double k) {
  return [base = std::move(base), cut = std::move(cut), k](const Vec3& p) { return -smin(-base(p), cut(p), k); };
}

Sdf mirroredX(Sdf part) {
  return [part = std::move(part)](const Vec3& p) { return part(Vec3(std::abs(p.x()), p.y(), p.z())); };
}

Sdf mirroredZ(Sdf part) {
  return [part = std::move(part)](const Vec3& p) { return part(Vec3(p.x(), p.y(), std::abs(p.z()))); };
}

Vec3 gradient(const Sdf& f, const Vec3& p, double h) {
  Vec3 g;
  for (int k = 0; k < 3; ++k) {
    Vec3 e = Vec3::Zero();
    e[k] = h;
    g[k] = (f(p + e) - f(p - e)) / (2.0 * h);
  }
  return g;
}

Vec3 projectToSurface(const Sdf& f, Vec3 p, double h, double tol) {
  for (int iter = 0; iter < 8; ++iter) {
    const double d = f(p);
    if (std::abs(d) < tol) break;
    const Vec3 g = gradient(f, p, h);
    const double g2 = g.squaredNorm();
    if (g2 < 1e-12) break;
    p -= d * g / g2;
  }
  return p;
}

Mat3 rotation(const Vec3& axis, double angle) { return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(); }

}  // namespace qnsim::assets
