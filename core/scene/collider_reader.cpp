#include "core/scene/readers.h"

namespace qnsim::scene_detail {
namespace {

constexpr double kHuge = 1e12;

// The keys each shape takes besides "type", "name", "motion" and its pose.
void readShapeSize(const JsonField& field, const std::string& type, Collider& c) {
  if (type == "sphere") {
    field.allowOnly({"type", "name", "motion", "center", "rotate", "radius"});
    c.shape = Collider::Shape::Sphere;
    c.radius = field["radius"].number(1e-9, kHuge);
  } else if (type == "box") {
    field.allowOnly({"type", "name", "motion", "center", "rotate", "half_extents"});
    c.shape = Collider::Shape::Box;
    c.half_extents = field["half_extents"].vec3(1e-9, kHuge);
  } else if (type == "capsule") {
    field.allowOnly({"type", "name", "motion", "center", "rotate", "radius", "half_length"});
    c.shape = Collider::Shape::Capsule;
    c.radius = field["radius"].number(1e-9, kHuge);
    c.half_length = field["half_length"].number(0, kHuge);
  } else if (type == "torus") {
    field.allowOnly({"type", "name", "motion", "center", "rotate", "major_radius", "minor_radius"});
    c.shape = Collider::Shape::Torus;
    c.major_radius = field["major_radius"].number(1e-9, kHuge);
    c.minor_radius = field["minor_radius"].number(1e-9, c.major_radius);
  } else {
    field["type"].fail("unknown collider '" + type + "' (known: plane, sphere, box, capsule, torus)");
  }
}

}  // namespace

// {"type": "plane", "point": [..], "normal": [..]} | {"type": "sphere", "center": [..], "radius": r}
// | {"type": "box", "center": [..], "half_extents": [..], "rotate": {..}}
// | {"type": "capsule", "center": [..], "radius": r, "half_length": l, "rotate": {..}} (axis along local z)
// | {"type": "torus", "center": [..], "major_radius": R, "minor_radius": r, "rotate": {..}} (hole along local z)
// Any of them may have "motion": [..] (keyframed, as handles), about its centre (a plane: its point).
Collider readCollider(const JsonField& field) {
  Collider c;
  const std::string type = field["type"].string();
  c.name = field.stringOr("name", type);
  if (const auto motion = field.find("motion")) c.motion = readMotionList(*motion);
  if (type == "plane") {
    field.allowOnly({"type", "name", "motion", "point", "normal"});
    c.shape = Collider::Shape::Plane;
    c.position = field.vec3Or("point", Vec3::Zero());
    const Vec3 n = field.vec3Or("normal", Vec3::UnitY());
    if (!(n.norm() > 0)) field["normal"].fail("the normal must not be zero");
    c.rotation = Eigen::Quaterniond::FromTwoVectors(Vec3::UnitY(), n.normalized()).toRotationMatrix();
    return c;
  }
  readShapeSize(field, type, c);
  c.position = field.vec3Or("center", Vec3::Zero());
  if (const auto rotate = field.find("rotate")) c.rotation = readRotation(*rotate);
  return c;
}

}  // namespace qnsim::scene_detail
