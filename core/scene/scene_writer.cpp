// writeScene (qnsim/scene.h): a scene as a scene file. A scene read from a file is written as that file
// said it, entry by entry, except where the scene now differs from what the entry reads as: then the
// entry is written anew from the scene (keeping the entry's own way of saying what did not change).
// So a saved scene keeps its author's units, paths and layout, and reads back as the same bits.
#include <cmath>

#include "core/common/files.h"
#include "core/material/spline.h"
#include "core/mesh/mesh_io.h"
#include "core/params/parameter_json.h"
#include "core/scene/json_format.h"
#include "core/scene/readers.h"
#include "core/scene/scene_source.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"

namespace qnsim {
namespace {

using Json = nlohmann::ordered_json;

Json vec(const Vec3& v) { return Json::array({v.x(), v.y(), v.z()}); }
Json vec(const Vec2& v) { return Json::array({v.x(), v.y()}); }

// What a source entry reads as, through the scene reader itself.
template <class Read>
auto reread(const Json& entry, Read read) {
  const nlohmann::json plain(entry);
  return read(JsonField(plain, "the scene as read"));
}

// --- settings

// Whether the file wrote `key` in any of its forms: "solver.method", {"solver": {"method"}}, ...
bool writes(const Json& object, const std::string& key) {
  if (!object.is_object()) return false;
  if (object.contains(key)) return true;
  for (size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', dot + 1)) {
    const auto group = object.find(key.substr(0, dot));
    if (group != object.end() && writes(*group, key.substr(dot + 1))) return true;
  }
  return false;
}

// Every setting the file wrote or that differs from its default, nested by its dots as a person
// writes them: "time_step", "solver": {"method", "pbd": {"sweep"}}.
Json settingsJson(const Settings& settings, const Json* source) {
  Json out = Json::object();
  for (const SettingParameter& p : parameters()) {
    const ParameterValue value = p.get(settings);
    if (value == p.default_value && !(source && writes(*source, p.key))) continue;
    Json* at = &out;
    std::string key = p.key;
    for (size_t dot; (dot = key.find('.')) != std::string::npos; key = key.substr(dot + 1)) at = &(*at)[key.substr(0, dot)];
    (*at)[key] = parameterToJson(value);
  }
  return out;
}

// --- motion, selections, colliders

Json rotationJson(const Mat3& R) {
  const Eigen::AngleAxisd turn(R);
  return {{"axis", vec(turn.axis())}, {"degrees", turn.angle() * 180.0 / M_PI}};
}

Json motionJson(const MotionSegment& m) {
  using Type = MotionSegment::Type;
  Json out;
  if (m.type == Type::Keys) {
    out["type"] = "keys";
    if (m.interpolation == MotionSegment::Interpolation::Smooth) out["interpolation"] = "smooth";
    for (const KeyPose& k : m.keys) {
      Json key = {{"time", k.time}};
      if (!k.translate.isZero()) key["translate"] = vec(k.translate);
      if (!k.rotation.isZero()) key["rotate"] = {{"axis", vec(k.rotation.normalized())}, {"degrees", k.rotation.norm() * 180.0 / M_PI}};
      out["keys"].push_back(key);
    }
    return out;
  }
  if (m.type == Type::Translate) out = {{"type", "translate"}, {"velocity", vec(m.vector)}};
  if (m.type == Type::Rotate) out = {{"type", "rotate"}, {"axis", vec(m.vector)}, {"degrees_per_second", m.rate}};
  if (m.type == Type::Shake)
    out = {{"type", "shake"}, {"direction", vec(m.vector)}, {"amplitude", m.amplitude}, {"frequency", m.frequency}};
  if (m.start != 0) out["start"] = m.start;
  if (std::isfinite(m.end)) out["end"] = m.end;
  return out;
}

// The source's value of `key` when the scene's value is what it reads as, else `fresh`.
Json keep(const Json* source, const char* key, bool same, const Json& fresh) {
  return source && same && source->contains(key) ? (*source)[key] : fresh;
}

Json motionListJson(const std::vector<MotionSegment>& motion, const Json* source, bool same) {
  Json fresh = Json::array();
  for (const MotionSegment& m : motion) fresh.push_back(motionJson(m));
  return keep(source, "motion", same, fresh);
}

Json selectionJson(const Selection& s) {
  switch (s.kind) {
    case Selection::Kind::All: return {{"all", true}};
    case Selection::Kind::Box: return {{"box", {{"min", vec(s.min)}, {"max", vec(s.max)}}}};
    case Selection::Kind::Sphere: return {{"sphere", {{"center", vec(s.center)}, {"radius", s.radius}}}};
    case Selection::Kind::Indices: return {{"indices", s.indices}};
    case Selection::Kind::Region: return {{"region", s.region}};
  }
  return {};
}

const char* shapeName(Collider::Shape shape) {
  switch (shape) {
    case Collider::Shape::Plane: return "plane";
    case Collider::Shape::Sphere: return "sphere";
    case Collider::Shape::Box: return "box";
    case Collider::Shape::Capsule: return "capsule";
    case Collider::Shape::Torus: return "torus";
  }
  return "";
}

// `was`: what the source entry reads as (when there is one).
Json colliderJson(const Collider& c, const Json* source, const Collider* was) {
  if (source && was && c == *was) return *source;
  Json out = {{"type", shapeName(c.shape)}};
  if (c.name != shapeName(c.shape) || (source && source->contains("name"))) out["name"] = c.name;
  const bool posed = was && was->rotation == c.rotation;
  if (c.shape == Collider::Shape::Plane) {
    out["point"] = vec(c.position);
    if (!c.rotation.isIdentity() || (source && source->contains("normal")))
      out["normal"] = keep(source, "normal", posed, vec(Vec3(c.rotation * Vec3::UnitY())));
  } else {
    out["center"] = vec(c.position);
    if (!c.rotation.isIdentity() || (source && source->contains("rotate"))) out["rotate"] = keep(source, "rotate", posed, rotationJson(c.rotation));
  }
  switch (c.shape) {
    case Collider::Shape::Plane: break;
    case Collider::Shape::Sphere: out["radius"] = c.radius; break;
    case Collider::Shape::Box: out["half_extents"] = vec(c.half_extents); break;
    case Collider::Shape::Capsule: out["radius"] = c.radius, out["half_length"] = c.half_length; break;
    case Collider::Shape::Torus: out["major_radius"] = c.major_radius, out["minor_radius"] = c.minor_radius; break;
  }
  if (!c.motion.empty()) out["motion"] = motionListJson(c.motion, source, was && was->motion == c.motion);
  return out;
}

// --- bodies

bool sameMaterial(const Material& a, const Material& b) {
  if (a.model() != b.model()) return false;
  for (const MaterialParameter& p : a.parameters())
    if (a.get(p.key) != b.get(p.key)) return false;
  const auto* sa = dynamic_cast<const SplineMaterial*>(&a);
  return !sa || sa->controlPoints() == static_cast<const SplineMaterial&>(b).controlPoints();
}

Json regionJson(int region, bool mass_spring) {
  if (mass_spring && (region == 0 || region == 1)) return region == 0 ? "stretch" : "bend";
  return region;
}

// The model and every constant that differs from the model's default or that the source wrote.
void writeConstants(const Material& material, const Json* source, Json& out) {
  out["model"] = material.model();
  const std::unique_ptr<Material> defaults = makeMaterial(material.model());
  const bool same_model = source && source->value("model", "") == material.model();
  for (const MaterialParameter& p : material.parameters())
    if (material.get(p.key) != defaults->get(p.key) || (same_model && source->contains(p.key))) out[p.key] = material.get(p.key);
  if (const auto* spline = dynamic_cast<const SplineMaterial*>(&material)) {
    const auto& points = spline->controlPoints();
    if (same_model && source->contains("preset") && SplineMaterial::preset((*source)["preset"].get<std::string>()) == points)
      out["preset"] = (*source)["preset"];
    else if (points != static_cast<const SplineMaterial&>(*defaults).controlPoints())
      for (const Vec2& point : points) out["points"].push_back(vec(point));
  }
}

Json materialJson(const MaterialDesc& m, const BodyDesc& body, const Json* source, const MaterialDesc* was) {
  if (source && was && was->name == m.name && was->region == m.region && was->fiber == m.fiber && sameMaterial(*was->material, *m.material))
    return *source;
  Json out = Json::object();
  const std::string default_name = m.region < 0 ? body.name : body.name + "." + std::to_string(m.region);
  if (m.name != default_name || (source && source->contains("name"))) out["name"] = m.name;
  if (m.region >= 0) out["region"] = keep(source, "region", was && was->region == m.region, regionJson(m.region, body.mass_spring));
  writeConstants(*m.material, source, out);
  if (source && source->contains("select")) out["select"] = (*source)["select"];
  else if (m.select) out["select"] = selectionJson(*m.select);
  if (m.fiber.kappa > 0)
    out["fiber"] = keep(source, "fiber", was && was->fiber == m.fiber, {{"direction", vec(m.fiber.direction)}, {"kappa", m.fiber.kappa}});
  return out;
}

Json handleJson(const HandleDesc& h, const Json* source, const HandleDesc* was) {
  if (source && was && h == *was) return *source;
  Json out = {{"name", h.name}};
  out["select"] = keep(source, "select", was && was->select == h.select, selectionJson(h.select));
  if (h.stiffness != HandleDesc().stiffness || (source && source->contains("stiffness"))) out["stiffness"] = h.stiffness;
  if (h.has_center) out["center"] = vec(h.center);
  if (!h.motion.empty()) out["motion"] = motionListJson(h.motion, source, was && was->motion == h.motion);
  for (const Vec3& p : h.positions) out["positions"].push_back(vec(p));
  return out;
}

Json removedJson(const ElementSet& removed) {
  Json out = Json::object();
  if (!removed.tets.empty()) out["tets"] = removed.tets;
  if (!removed.springs.empty()) out["springs"] = removed.springs;
  return out;
}

// A list of entries written anew from `items`, each against the source's entry of the same index.
template <class Item, class Write>
Json listJson(const std::vector<Item>& items, const Json* source_list, const std::vector<Item>* was, Write write) {
  Json out = Json::array();
  for (size_t i = 0; i < items.size(); ++i) {
    const bool paired = source_list && was && i < source_list->size() && i < was->size();
    out.push_back(write(items[i], paired ? &(*source_list)[i] : nullptr, paired ? &(*was)[i] : nullptr));
  }
  return out;
}

// A mesh path of the source, relative to the folder of the new file.
Json rebasedPath(const std::string& path, const std::filesystem::path& from, const std::filesystem::path& to) {
  const std::filesystem::path file(path);
  if (file.is_absolute()) return path;
  const auto absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(from / file));
  return absolute.lexically_relative(std::filesystem::weakly_canonical(std::filesystem::absolute(to))).generic_string();
}

// A body made in code: its mesh written beside the scene file.
Json codeBodyJson(const BodyDesc& body, const std::filesystem::path& file) {
  if (body.mass_spring) throw error(file.string(), ": body '", body.name, "' is a cloth or strands made in code, which a scene file cannot describe");
  const std::string mesh_name = file.stem().string() + "." + body.name + ".mesh";
  writeMedit(file.parent_path() / mesh_name, body.mesh);
  Json out = {{"name", body.name}, {"mesh", mesh_name}};
  if (body.density != 1000.0) out["density"] = body.density;
  if (!body.velocity.isZero()) out["velocity"] = vec(body.velocity);
  return out;
}

Json bodyJson(const BodyDesc& body, int index, const Scene& scene, const std::filesystem::path& file) {
  const std::filesystem::path folder = file.parent_path().empty() ? "." : file.parent_path();
  if (!body.origin) {
    Json out = codeBodyJson(body, file);
    for (const MaterialDesc& m : body.materials) out["materials"].push_back(materialJson(m, body, nullptr, nullptr));
    for (const HandleDesc& h : body.handles) out["handles"].push_back(handleJson(h, nullptr, nullptr));
    if (body.removed.size() > 0) out["removed"] = removedJson(body.removed);
    return out;
  }
  const Json& source = body.origin->json;
  const BodyDesc was = reread(source, [&](const JsonField& f) {
    return scene_detail::readBody(f, body.origin->folder, index, scene.settings.memory_share,
                                  [&](const std::filesystem::path&, const TetgenOptions&) { return body.mesh; });
  });
  Json out = source;
  for (const char* key : {"mesh", "render_mesh"})
    if (out.contains(key) && out[key].is_string()) out[key] = rebasedPath(out[key], body.origin->folder, folder);
  if (body.name != was.name) out["name"] = body.name;
  if (body.density != was.density) out["density"] = body.density;
  if (body.velocity != was.velocity) out["velocity"] = vec(body.velocity);
  const Json* materials = source.contains("materials") ? &source["materials"] : nullptr;
  out["materials"] = listJson(body.materials, materials, &was.materials,
                              [&](const MaterialDesc& m, const Json* s, const MaterialDesc* w) { return materialJson(m, body, s, w); });
  const Json* handles = source.contains("handles") ? &source["handles"] : nullptr;
  if (!body.handles.empty()) out["handles"] = listJson(body.handles, handles, &was.handles, handleJson);
  else out.erase("handles");
  if (body.removed != was.removed) out["removed"] = removedJson(body.removed);
  if (body.removed.size() == 0) out.erase("removed");
  return out;
}

Json sceneJson(const Scene& scene, const std::filesystem::path& file) {
  const Json* source = scene.origin ? &scene.origin->json : nullptr;
  const auto has = [&](const char* key) { return source && source->contains(key); };
  Json out = Json::object();
  if (has("format") || !source) out["format"] = "qnsim-scene";
  out["version"] = 1;
  if (has("name") || !scene.name.empty()) out["name"] = scene.name;
  if (has("description") || !scene.description.empty()) out["description"] = scene.description;
  if (has("frames") || scene.frames != Scene().frames) out["frames"] = scene.frames;
  out.update(settingsJson(scene.settings, source));
  out["bodies"] = Json::array();
  for (size_t b = 0; b < scene.bodies.size(); ++b) out["bodies"].push_back(bodyJson(scene.bodies[b], static_cast<int>(b), scene, file));
  std::vector<Collider> was;
  if (has("colliders"))
    for (const Json& c : (*source)["colliders"]) was.push_back(reread(c, scene_detail::readCollider));
  if (!scene.colliders.empty() || has("colliders"))
    out["colliders"] = listJson(scene.colliders, has("colliders") ? &(*source)["colliders"] : nullptr, &was, colliderJson);
  CameraDesc camera;
  if (has("camera")) reread((*source)["camera"], [&](const JsonField& f) { scene_detail::readCamera(f, camera); return 0; });
  if (has("camera") && camera == scene.camera) out["camera"] = (*source)["camera"];
  else if (scene.camera.given) out["camera"] = {{"eye", vec(scene.camera.eye)}, {"target", vec(scene.camera.target)}, {"fov_degrees", scene.camera.fov_degrees}};
  return out;
}

}  // namespace

void writeScene(const Scene& scene, const std::filesystem::path& path) {
  const std::string text = formatJson(sceneJson(scene, path));
  writeFileBytes(path, text);
}

}  // namespace qnsim
