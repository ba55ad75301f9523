// Keyframed motion of handles and colliders: {"type": "translate" | "rotate" | "twist" | "shake" | "keys", ...}.
#include <cmath>

#include "core/scene/readers.h"

namespace qnsim::scene_detail {
namespace {

constexpr double kHuge = 1e12;

Vec3 readDirection(const JsonField& field, const char* what) {
  const Vec3 v = field.vec3();
  if (!(v.norm() > 0)) field.fail(std::string("the ") + what + " must not be zero");
  return v.normalized();
}

// {"time": t, "translate": [x, y, z], "rotate": {"axis": [..], "degrees": d}}
KeyPose readKey(const JsonField& field) {
  field.allowOnly({"time", "translate", "rotate"});
  KeyPose key;
  key.time = field["time"].number(0, kHuge);
  key.translate = field.vec3Or("translate", Vec3::Zero());
  if (const auto rotate = field.find("rotate")) {
    rotate->allowOnly({"axis", "degrees"});
    key.rotation = readDirection((*rotate)["axis"], "rotation axis") * (*rotate)["degrees"].number(-1e6, 1e6) * M_PI / 180.0;
  }
  return key;
}

void readKeys(const JsonField& field, MotionSegment& m) {
  field.allowOnly({"type", "keys", "interpolation"});
  m.type = MotionSegment::Type::Keys;
  const std::string interpolation = field.stringOr("interpolation", "linear");
  if (interpolation == "smooth") m.interpolation = MotionSegment::Interpolation::Smooth;
  else if (interpolation != "linear") field["interpolation"].fail("expected \"linear\" or \"smooth\", got \"" + interpolation + "\"");
  const std::vector<JsonField> keys = field["keys"].items();
  if (keys.empty()) field["keys"].fail("a key list needs at least one key");
  for (const JsonField& k : keys) {
    m.keys.push_back(readKey(k));
    if (m.keys.size() < 2) continue;
    const KeyPose &a = m.keys[m.keys.size() - 2], &b = m.keys.back();
    if (!(b.time > a.time)) k["time"].fail("key times must increase (the previous key is at " + std::to_string(a.time) + " s)");
  }
}

}  // namespace

MotionSegment readMotion(const JsonField& field) {
  MotionSegment m;
  const std::string type = field["type"].string();
  if (type == "keys") {
    readKeys(field, m);
    return m;
  }
  m.start = field.numberOr("start", 0.0, 0.0, kHuge);
  m.end = field.numberOr("end", m.end, m.start, 1e300);
  if (type == "translate") {
    field.allowOnly({"type", "velocity", "start", "end"});
    m.type = MotionSegment::Type::Translate;
    m.vector = field["velocity"].vec3();
  } else if (type == "rotate" || type == "twist") {
    field.allowOnly({"type", "axis", "degrees_per_second", "start", "end"});
    m.type = MotionSegment::Type::Rotate;
    m.vector = readDirection(field["axis"], "rotation axis");
    m.rate = field["degrees_per_second"].number(-1e6, 1e6);
  } else if (type == "shake") {
    field.allowOnly({"type", "direction", "amplitude", "frequency", "start", "end"});
    m.type = MotionSegment::Type::Shake;
    m.vector = readDirection(field["direction"], "shake direction");
    m.amplitude = field["amplitude"].number(0, kHuge);
    m.frequency = field["frequency"].number(0, 1e6);
  } else {
    field["type"].fail("unknown motion '" + type + "' (known: translate, rotate, twist, shake, keys)");
  }
  return m;
}

std::vector<MotionSegment> readMotionList(const JsonField& field) {
  std::vector<MotionSegment> motion;
  for (const JsonField& m : field.items()) motion.push_back(readMotion(m));
  return motion;
}

}  // namespace qnsim::scene_detail
