#include "view/picking.h"

#include <cmath>
#include <limits>

#include "core/math/proximity.h"

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

PickHit pickStrandVertex(const Ray& ray, const VecX& x, const EdgeIndices& segments, const std::vector<float>& radius) {
  PickHit hit;
  constexpr double kFar = 1e4;  // the ray as a long segment
  const Vec3 origin = ray.origin.cast<double>(), far = origin + kFar * ray.direction.cast<double>();
  float best = std::numeric_limits<float>::infinity();
  for (Eigen::Index s = 0; s < segments.rows(); ++s) {
    const Vec3 a = vertex(x, segments(s, 0)), b = vertex(x, segments(s, 1));
    const Vec2 st = closestSegmentParameters(origin, far, a, b);
    const Vec3 on_ray = origin + st[0] * (far - origin), on_segment = a + st[1] * (b - a);
    const float t = static_cast<float>(st[0] * kFar);
    if ((on_ray - on_segment).norm() > radius[s] || !(t > 0.0f) || t >= best) continue;
    best = t;
    hit = {st[1] < 0.5 ? segments(s, 0) : segments(s, 1), t, on_ray.cast<float>()};
  }
  return hit;
}

namespace {

// The nearest render mesh triangle hit by the ray (drawn positions), and the simulation vertex that the corner
// closest to the hit point follows most.
PickHit pickEmbeddedVertex(const Ray& ray, const VecX& x, const SurfaceView& view) {
  PickHit hit;
  if (view.embed_index.empty()) return hit;
  std::vector<float> positions;
  gatherPositions(view, x, positions);
  const auto p = [&](unsigned i) { return Vec3f(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]); };
  float best = std::numeric_limits<float>::infinity();
  for (int f = view.embed_triangles_first; f < view.surface_triangles; ++f) {
    const unsigned* t = &view.local[3 * static_cast<std::size_t>(f)];
    const float d = intersectTriangle(ray, p(t[0]), p(t[1]), p(t[2]));
    if (d < 0 || d >= best) continue;
    best = d;
    hit.distance = d;
    hit.point = ray.origin + d * ray.direction;
    float nearest = std::numeric_limits<float>::infinity();
    for (int c = 0; c < 3; ++c)
      if ((p(t[c]) - hit.point).squaredNorm() < nearest) nearest = (p(t[c]) - hit.point).squaredNorm(), hit.vertex = view.vertices[t[c]];
  }
  return hit;
}

PickHit nearer(const PickHit& a, const PickHit& b) {
  if (a.vertex < 0) return b;
  return b.vertex >= 0 && b.distance < a.distance ? b : a;
}

}  // namespace

PickHit pickVertex(const Ray& ray, const VecX& x, const SurfaceView& view) {
  const PickHit surface = nearer(pickSurfaceVertex(ray, x, view.triangles), pickEmbeddedVertex(ray, x, view));
  if (view.segments.rows() == 0) return surface;
  const PickHit strand = pickStrandVertex(ray, x, view.segments, view.segment_radius);
  if (surface.vertex < 0) return strand;
  return strand.vertex >= 0 && strand.distance < surface.distance ? strand : surface;
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
