#pragma once
// Triangle meshes of the rigid colliders, in world coordinates, for drawing. Planes are drawn as the
// ground grid instead and give an empty mesh.
#include <vector>

#include "core/collision/collider.h"
#include "view/camera.h"

namespace qnsim::view {

struct DrawMesh {
  std::vector<float> positions, normals;  // 3 per vertex
  std::vector<unsigned> indices;          // 3 per triangle, counter-clockwise from outside
  void addVertex(const Vec3f& p, const Vec3f& n);
  void append(const DrawMesh& other);
};

DrawMesh colliderMesh(const Collider& collider, int segments = 48);

// The planes among the colliders, as (point, unit normal); the ground grid is drawn on the first one.
bool firstPlane(const std::vector<Collider>& colliders, Vec3f& point, Vec3f& normal);

}  // namespace qnsim::view
