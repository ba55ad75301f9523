#include "view/collider_mesh.h"

#include <cmath>
#include <functional>

namespace qnsim::view {
namespace {

constexpr float kPi = 3.14159265358979f;

// A (u, v) grid over a parametric surface; `surface` returns the point and the outward normal.
DrawMesh parametric(int nu, int nv, const std::function<void(float, float, Vec3f&, Vec3f&)>& surface) {
  DrawMesh mesh;
  for (int i = 0; i <= nu; ++i)
    for (int j = 0; j <= nv; ++j) {
      Vec3f p, n;
      surface(static_cast<float>(i) / nu, static_cast<float>(j) / nv, p, n);
      mesh.addVertex(p, n);
    }
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      const unsigned a = i * (nv + 1) + j, b = a + nv + 1;
      mesh.indices.insert(mesh.indices.end(), {a, b, a + 1, a + 1, b, b + 1});
    }
  return mesh;
}

// Local frame: u around the axis (z), v from one pole to the other.
DrawMesh sphere(float r, float half_length, int segments) {
  return parametric(segments, segments, [=](float u, float v, Vec3f& p, Vec3f& n) {
    const float phi = 2.0f * kPi * u, theta = kPi * v;
    n = Vec3f(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), -std::cos(theta));
    // A capsule is a sphere split at the equator and pulled apart along z.
    p = r * n + Vec3f(0, 0, n.z() < 0 ? -half_length : half_length);
  });
}

DrawMesh torus(float major, float minor, int segments) {
  return parametric(segments, segments / 2, [=](float u, float v, Vec3f& p, Vec3f& n) {
    const float phi = 2.0f * kPi * u, theta = 2.0f * kPi * v;  // (u, v) turn counter-clockwise seen from outside
    const Vec3f radial(std::cos(phi), std::sin(phi), 0.0f);
    n = std::cos(theta) * radial + std::sin(theta) * Vec3f::UnitZ();
    p = major * radial + minor * n;
  });
}

DrawMesh box(const Vec3f& half) {
  DrawMesh mesh;
  for (int axis = 0; axis < 3; ++axis)
    for (float sign : {-1.0f, 1.0f}) {
      Vec3f n = Vec3f::Zero();
      n[axis] = sign;
      const Vec3f u = Vec3f::Unit((axis + 1) % 3), v = Vec3f::Unit((axis + 2) % 3);
      const unsigned base = static_cast<unsigned>(mesh.positions.size() / 3);
      for (float a : {-1.0f, 1.0f})
        for (float b : {-1.0f, 1.0f}) mesh.addVertex((n + a * u + b * v).cwiseProduct(half), n);
      // Corners are (-,-), (-,+), (+,-), (+,+); orient so that the winding faces along n.
      if (sign > 0) mesh.indices.insert(mesh.indices.end(), {base, base + 2, base + 3, base, base + 3, base + 1});
      else mesh.indices.insert(mesh.indices.end(), {base, base + 3, base + 2, base, base + 1, base + 3});
    }
  return mesh;
}

}  // namespace

void DrawMesh::addVertex(const Vec3f& p, const Vec3f& n) {
  positions.insert(positions.end(), {p.x(), p.y(), p.z()});
  normals.insert(normals.end(), {n.x(), n.y(), n.z()});
}

void DrawMesh::append(const DrawMesh& other) {
  const unsigned base = static_cast<unsigned>(positions.size() / 3);
  positions.insert(positions.end(), other.positions.begin(), other.positions.end());
  normals.insert(normals.end(), other.normals.begin(), other.normals.end());
  for (unsigned i : other.indices) indices.push_back(base + i);
}

DrawMesh colliderMesh(const Collider& c, int segments) {
  DrawMesh local;
  switch (c.shape) {
    case Collider::Shape::Plane: return {};
    case Collider::Shape::Sphere: local = sphere(static_cast<float>(c.radius), 0.0f, segments); break;
    case Collider::Shape::Capsule: local = sphere(static_cast<float>(c.radius), static_cast<float>(c.half_length), segments); break;
    case Collider::Shape::Torus: local = torus(static_cast<float>(c.major_radius), static_cast<float>(c.minor_radius), segments); break;
    case Collider::Shape::Box: local = box(c.half_extents.cast<float>()); break;
  }
  const Eigen::Matrix3f R = c.rotation.cast<float>();
  const Vec3f t = c.position.cast<float>();
  for (size_t i = 0; i < local.positions.size(); i += 3) {
    Eigen::Map<Vec3f> p(&local.positions[i]), n(&local.normals[i]);
    p = R * p + t;
    n = R * n;
  }
  return local;
}

bool firstPlane(const std::vector<Collider>& colliders, Vec3f& point, Vec3f& normal) {
  for (const Collider& c : colliders)
    if (c.shape == Collider::Shape::Plane) {
      point = c.position.cast<float>();
      normal = (c.rotation * Vec3::UnitY()).cast<float>();
      return true;
    }
  return false;
}

}  // namespace qnsim::view
