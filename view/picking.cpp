#include "view/picking.h"

#include <cmath>
#include <limits>

namespace qnsim::view {
namespace {
Vec3f at(const VecX& x, int v) { return vertex(x, v).cast<float>(); }
}  // namespace

float intersectTriangle(const Ray& ray, const Vec3f& a, const Vec3f& b, const Vec3f& c) {
  const Vec3f e1 = b - a, e2 = c - a, p = ray.direction.cross(e2);
  const float det = e1.dot(p);
  if (std::abs(det) < 1e-12f) return -1.0f;  // parallel; both faces count, cloth has no inside
  const float inv = 1.0f / det;
  const Vec3f s = ray.origin - a;
  const float u = s.dot(p) * inv;
  if (u < 0.0f || u > 1.0f) return -1.0f;
  const Vec3f q = s.cross(e1);
  const float v = ray.direction.dot(q) * inv;
  if (v < 0.0f || u + v > 1.0f) return -1.0f;
  return e2.dot(q) * inv;
}

PickHit pickSurfaceVertex(const Ray& ray, const VecX& x, const TriIndices& triangles) {
  PickHit hit;
  float best = std::numeric_limits<float>::infinity();
  int best_face = -1;
  for (int f = 0; f < triangles.rows(); ++f) {
    const float t = intersectTriangle(ray, at(x, triangles(f, 0)), at(x, triangles(f, 1)), at(x, triangles(f, 2)));
    if (t > 0.0f && t < best) {
      best = t;
      best_face = f;
    }
  }
  if (best_face < 0) return hit;
  hit.distance = best;
  hit.point = ray.origin + best * ray.direction;
  float nearest = std::numeric_limits<float>::infinity();
  for (int c = 0; c < 3; ++c) {
    const int v = triangles(best_face, c);
    const float d = (at(x, v) - hit.point).squaredNorm();
    if (d < nearest) {
      nearest = d;
      hit.vertex = v;
    }
  }
  return hit;
}

Vec3f intersectPlane(const Ray& ray, const Vec3f& point, const Vec3f& normal) {
  const float denom = ray.direction.dot(normal);
  if (std::abs(denom) < 1e-8f) return point;
  return ray.origin + ((point - ray.origin).dot(normal) / denom) * ray.direction;
}

std::vector<int> verticesInRect(const OrbitCamera& camera, const Vec2f& viewport, const Vec2f& a, const Vec2f& b, const VecX& x,
                                const std::vector<int>& candidates) {
  const Vec2f lo = a.cwiseMin(b), hi = a.cwiseMax(b);
  std::vector<int> out;
  for (int v : candidates) {
    Vec2f pixel;
    if (camera.project(at(x, v), viewport, pixel) && (pixel.array() >= lo.array()).all() && (pixel.array() <= hi.array()).all())
      out.push_back(v);
  }
  return out;
}

}  // namespace qnsim::view
