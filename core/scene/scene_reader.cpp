// The scene file: top level, solver and integrator parameters, colliders, camera. Bodies are read in
// body_reader.cpp. The format is documented in docs/scene_format.md.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "core/mesh/mesh_io.h"
#include "core/params/parameter_json.h"
#include "core/scene/bare_mesh_scene.h"
#include "core/scene/readers.h"
#include "core/scene/scene_parser.h"
#include "core/scene/scene_source.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"

namespace qnsim {
namespace {

constexpr int kFormatVersion = 1;
const std::set<std::string> kStructuralKeys = {"format", "version", "name", "description", "frames", "bodies", "colliders", "camera"};

void checkUniqueMaterialNames(const Scene& scene, const JsonField& root) {
  std::set<std::string> names;
  for (size_t b = 0; b < scene.bodies.size(); ++b)
    for (const MaterialDesc& m : scene.bodies[b].materials)
      if (!names.insert(m.name).second)
        root["bodies"].fail("two materials are named '" + m.name + "'; give them distinct \"name\"s");
}

// "line L, column C" of a byte offset, for JSON syntax errors.
std::string lineAndColumn(const std::string& text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) text[i] == '\n' ? (++line, column = 1) : ++column;
  return std::to_string(line) + ":" + std::to_string(column);
}

constexpr std::string_view kMaterialPrefix = "material.";
// "material.NAME.PARAMETER", as a key or the start of a KEY=VALUE assignment.
bool isMaterialKey(std::string_view key_or_assignment) { return key_or_assignment.rfind(kMaterialPrefix, 0) == 0; }

// The file's JSON, in its own key order, for the scene writer: the scene's and each body's entry.
void keepSources(const std::string& text, const std::filesystem::path& folder, Scene& scene) {
  auto source = std::make_shared<SceneSource>(SceneSource{nlohmann::ordered_json::parse(text), folder});
  const nlohmann::ordered_json& bodies = source->json["bodies"];
  for (size_t b = 0; b < scene.bodies.size(); ++b)
    scene.bodies[b].origin = std::make_shared<SceneSource>(SceneSource{bodies[b], folder});
  scene.origin = std::move(source);
}

}  // namespace

namespace scene_detail {

void readCamera(const JsonField& field, CameraDesc& camera) {
  field.allowOnly({"eye", "target", "fov_degrees"});
  camera.given = true;
  camera.eye = field.vec3Or("eye", camera.eye);
  camera.target = field.vec3Or("target", camera.target);
  camera.fov_degrees = field.numberOr("fov_degrees", camera.fov_degrees, 1, 170);
}

// Parameters appear at their dotted key's nesting: {"time_step": ..., "solver": {"method": ...}}.
void readParameters(const JsonField& field, const std::string& prefix, Settings& settings) {
  for (const auto& [key, value] : field.json().items()) {
    if (prefix.empty() && kStructuralKeys.count(key)) continue;
    const std::string full = prefix.empty() ? key : prefix + "." + key;
    const JsonField member = *field.find(key);
    bool is_group = false;
    for (const SettingParameter& p : parameters()) is_group |= p.key.rfind(full + ".", 0) == 0;
    if (is_group && value.is_object()) {
      readParameters(member, full, settings);
      continue;
    }
    try {
      const SettingParameter& p = findParameter(full);
      setParameter(settings, p, parameterFromJson(p, value));
    } catch (const Error& e) {
      member.fail(e.what());
    }
  }
}

}  // namespace scene_detail

Scene parseScene(const std::string& text, const std::filesystem::path& path, const std::vector<std::string>& overrides,
                 const MeshLoader& load_mesh) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    what = what.substr(what.find(": ") + 2);  // drop nlohmann's "[json.exception.parse_error.101] parse error at ..."
    throw error(path.string(), ":", lineAndColumn(text, e.byte == 0 ? 0 : e.byte - 1), ": JSON syntax error: ", what);
  } catch (const nlohmann::json::exception& e) {
    // A number beyond a double's range ("number overflow parsing '1e999'"); nlohmann gives no position.
    const std::string what = e.what();
    throw error(path.string(), ": JSON number out of range: ", what.substr(what.find("] ") + 2));
  }
  const JsonField root(json, path.string());
  root.expectObject();
  if (const auto format = root.find("format"); format && format->string() != "qnsim-scene")
    format->fail("expected \"qnsim-scene\"");
  const int version = root["version"].integer(1, 1000);
  if (version != kFormatVersion)
    root["version"].fail("this qnsim reads scene format version " + std::to_string(kFormatVersion) + ", not " + std::to_string(version));

  Scene scene;
  scene.path = path;
  scene.name = root.stringOr("name", path.stem().string());
  scene.description = root.stringOr("description", "");
  if (const auto frames = root.find("frames")) scene.frames = frames->integer(1, 100000000);
  scene_detail::readParameters(root, "", scene.settings);
  for (const std::string& assignment : overrides)
    if (!isMaterialKey(assignment)) applyOverride(scene, assignment);
  const std::filesystem::path dir = path.parent_path();
  int index = 0;
  for (const JsonField& body : root["bodies"].items())
    scene.bodies.push_back(scene_detail::readBody(body, dir, index++, scene.settings.memory_share, load_mesh));
  if (scene.bodies.empty()) root["bodies"].fail("a scene needs at least one body");
  checkUniqueMaterialNames(scene, root);
  if (const auto colliders = root.find("colliders"))
    for (const JsonField& c : colliders->items()) scene.colliders.push_back(scene_detail::readCollider(c));
  if (const auto camera = root.find("camera")) scene_detail::readCamera(*camera, scene.camera);
  keepSources(text, path.parent_path(), scene);
  for (const std::string& assignment : overrides)
    if (isMaterialKey(assignment)) applyOverride(scene, assignment);
  return scene;
}

Scene loadScene(const std::filesystem::path& path, const std::vector<std::string>& overrides) {
  if (!std::filesystem::exists(path)) throw error(path.string(), ": no such file");
  if (std::filesystem::is_directory(path)) throw error(path.string(), ": is a folder, not a scene or mesh file");
  if (isMeshFile(path)) {
    return sceneForBareMesh(path, overrides);
  }
  std::string extension = path.extension().string();  // a picture dropped on the sandbox is no JSON syntax error
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension != ".json")
    throw error(path.string(),
                ": not a scene or mesh file (expected a .json scene, a tet mesh .mesh, .node/.ele or .msh, or a surface "
                ".obj, .off or .stl)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error(path.string(), ": cannot be opened");
  std::stringstream text;
  text << in.rdbuf();
  return parseScene(text.str(), path, overrides);
}

Scene parseScene(const std::string& text, const std::filesystem::path& path, const std::vector<std::string>& overrides) {
  return parseScene(text, path, overrides, {});
}

void applyOverride(Scene& scene, std::string_view assignment) {
  const auto [key, value] = splitAssignment(assignment);
  applyOverride(scene, key, value);
}

bool splitMaterialKey(const std::string& key, std::string& name, std::string& parameter) {
  if (!isMaterialKey(key)) return false;
  const size_t dot = key.rfind('.'), start = kMaterialPrefix.size();
  name = key.substr(start, dot - start);
  parameter = key.substr(dot + 1);
  return true;
}

std::unique_ptr<Material> overrideMaterial(const Material& material, const std::string& key, double value) {
  std::string name, parameter;
  splitMaterialKey(key, name, parameter);
  auto edited = material.clone();
  try {
    edited->set(parameter, value);
  } catch (const Error& e) {
    throw error(key, ": ", e.what());
  }
  return edited;
}

double parseMaterialValue(const Material& material, const std::string& key, const std::string& text) {
  std::string name, parameter;
  splitMaterialKey(key, name, parameter);
  try {
    return std::get<double>(parseParameter(material.parameter(parameter), text));
  } catch (const Error& e) {
    throw error(key, ": ", e.what());
  }
}

Error noMaterialNamed(const std::string& key, const std::string& name) {
  return error(key, ": the scene has no material named '", name, "'");
}

void applyOverride(Scene& scene, const std::string& key, const std::string& value) {
  std::string name, parameter;
  if (!splitMaterialKey(key, name, parameter)) {
    setParameter(scene.settings, key, value);
    return;
  }
  for (BodyDesc& body : scene.bodies)
    for (MaterialDesc& m : body.materials)
      if (m.name == name) {
        m.material = overrideMaterial(*m.material, key, parseMaterialValue(*m.material, key, value));
        return;
      }
  throw noMaterialNamed(key, name);
}

}  // namespace qnsim
