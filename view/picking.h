#pragma once
// Picking on the CPU: the surface vertex under the mouse, the drag plane, and box selection.
// Pure maths on the simulation's positions; no OpenGL.
#include <vector>

#include "qnsim/types.h"
#include "view/camera.h"
#include "view/surface_view.h"

namespace qnsim::view {

struct PickHit {
  int vertex = -1;        // global vertex index, -1 when the ray hits nothing
  float distance = 0.0f;  // along the ray to the hit point
  Vec3f point = Vec3f::Zero();
};

// Moller-Trumbore; returns the ray parameter or a negative number when the ray misses.
float intersectTriangle(const Ray& ray, const Vec3f& a, const Vec3f& b, const Vec3f& c);

// The nearest triangle of `triangles` (global indices into the 3n positions x) hit by the ray, and
// the corner of that triangle closest to the hit point.
PickHit pickSurfaceVertex(const Ray& ray, const VecX& x, const TriIndices& triangles);

// The nearest strand segment the ray passes within the segment's radius of, and that segment's end
// closest to where the ray passes it.
PickHit pickStrandVertex(const Ray& ray, const VecX& x, const EdgeIndices& segments, const std::vector<float>& radius);

// The nearer of the surface's and the strands' hits: the vertex under the mouse in a drawn view.
PickHit pickVertex(const Ray& ray, const VecX& x, const SurfaceView& view);

// Where the ray meets the plane through `point` with normal `normal`; `point` itself when parallel.
Vec3f intersectPlane(const Ray& ray, const Vec3f& point, const Vec3f& normal);

// Vertices among `candidates` whose projection lies in the pixel rectangle spanned by corners a, b.
std::vector<int> verticesInRect(const OrbitCamera& camera, const Vec2f& viewport, const Vec2f& a, const Vec2f& b, const VecX& x,
                                const std::vector<int>& candidates);

}  // namespace qnsim::view
