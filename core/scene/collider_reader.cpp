#include "core/scene/readers.h"

namespace qnsim::scene_detail {

// {"type": "plane", "point": [..], "normal": [..]} | {"type": "sphere", "center": [..], "radius": r}
// | {"type": "box", "center": [..], "half_extents": [..], "rotate": {..}}
// | {"type": "capsule", "center": [..], "radius": r, "half_length": l, "rotate": {..}} (axis along local z)
// | {"type": "torus", "center": [..], "major_radius": R, "minor_radius": r, "rotate": {..}} (hole along local z)
Collider readCollider(const JsonField& field) {
  Collider c;
  const std::string type = field["type"].string();
  c.name = field.stringOr("name", type);
  if (type == "plane") {
    field.allowOnly({"type", "name", "point", "normal"});
    c.shape = Collider::Shape::Plane;
    c.position = field.vec3Or("point", Vec3::Zero());
    const Vec3 n = field.vec3Or("normal", Vec3::UnitY());
    if (!(n.norm() > 0)) field["normal"].fail("the normal must not be zero");
    c.rotation = Eigen::Quaterniond::FromTwoVectors(Vec3::UnitY(), n.normalized()).toRotationMatrix();
    return c;
  }
  field.allowOnly({"type", "name", "center", "rotate", "radius", "half_extents", "half_length", "major_radius", "minor_radius"});
  c.position = field.vec3Or("center", Vec3::Zero());
  if (const auto rotate = field.find("rotate")) c.rotation = readRotation(*rotate);
  if (type == "sphere") {
    c.shape = Collider::Shape::Sphere;
    c.radius = field["radius"].number(1e-9, 1e12);
  } else if (type == "box") {
    c.shape = Collider::Shape::Box;
    c.half_extents = field["half_extents"].vec3(1e-9, 1e12);
  } else if (type == "capsule") {
    c.shape = Collider::Shape::Capsule;
    c.radius = field["radius"].number(1e-9, 1e12);
    c.half_length = field["half_length"].number(0, 1e12);
  } else if (type == "torus") {
    c.shape = Collider::Shape::Torus;
    c.major_radius = field["major_radius"].number(1e-9, 1e12);
    c.minor_radius = field["minor_radius"].number(1e-9, c.major_radius);
  } else {
    field["type"].fail("unknown collider '" + type + "' (known: plane, sphere, box, capsule, torus)");
  }
  return c;
}

}  // namespace qnsim::scene_detail
