#pragma once
// A scene: what the scene file (docs/scene_format.md) describes, with its meshes loaded. The app, the
// tests and the benchmarks all build their simulations from Scenes loaded from the same files.
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/collision/collider.h"
#include "core/common/error.h"
#include "core/material/fiber.h"
#include "core/material/material.h"
#include "core/mesh/shapes.h"
#include "core/mesh/tetrahedralize.h"
#include "core/params/settings.h"
#include "core/math/motion.h"
#include "core/scene/perturb.h"

namespace qnsim {

// Which vertices of a body a handle holds. Positions are in world coordinates (after placement).
struct Selection {
  enum class Kind { All, Box, Sphere, Indices, Region };
  Kind kind = Kind::All;
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();  // box
  Vec3 center = Vec3::Zero();                   // sphere
  double radius = 0;
  std::vector<int> indices;  // body vertex indices
  int region = 0;            // vertices of the tets with this region tag
};

struct HandleDesc {
  std::string name;
  Selection select;
  double stiffness = 1e4;  // attachment spring k (N/m)
  bool has_center = false;
  Vec3 center = Vec3::Zero();
  std::vector<MotionSegment> motion;  // target(t) = c + R(t) (X - c) + T(t), c = `center` or the rest centroid
};

struct MaterialDesc {
  std::string name;
  int region = -1;  // the mesh region tag it applies to; -1 = every tag not listed otherwise
  std::shared_ptr<const Material> material;
  Fiber fiber;
  // Given: the material takes, over the one their tag gives, the elements of its tag (any tag when
  // `region` is -1) whose vertices all lie in the selection.
  std::optional<Selection> select;
};

struct BodyDesc {
  std::string name;
  std::string source;  // "box", "cloth", "strands" or the mesh file, for messages
  bool mass_spring = false;  // a cloth or strands (`springs`), else a tet body (`mesh`)
  TetMesh mesh;        // tet bodies, placed in world coordinates
  SpringMesh springs;  // cloth and strand bodies, placed in world coordinates
  double strand_radius = 0;  // strands (m)
  double density = 1000.0;  // kg/m^3 (cloth: kg/m^2, strands: kg/m)
  Vec3 velocity = Vec3::Zero();
  PerturbDesc perturb;  // initial positions other than the rest shape
  std::vector<MaterialDesc> materials;
  std::vector<HandleDesc> handles;
};

struct CameraDesc {
  bool given = false;
  Vec3 eye = Vec3(0, 1, 3), target = Vec3::Zero();
  double fov_degrees = 45;
};

struct Scene {
  std::string name, description;
  std::filesystem::path path;  // the file it came from
  int frames = 300;            // default length of a headless run
  Settings settings;
  std::vector<BodyDesc> bodies;
  std::vector<Collider> colliders;
  CameraDesc camera;
};

// Loads a scene file (.json), or a bare mesh file with a default scene around it (the mesh dropped
// on a ground plane). Throws qnsim::Error naming the file and the JSON field or line of the problem.
// `overrides` are `--set KEY=VALUE` assignments (applyOverride below), applied as if written in the
// file: settings before the bodies are read (so that memory_share governs them), materials after.
Scene loadScene(const std::filesystem::path& path, const std::vector<std::string>& overrides = {});
// Reads a body's "mesh" file (its path made absolute against the scene's folder). Empty: the file
// on disk, through readTetMesh. The fuzz tests pass one that touches neither the disk nor tetgen.
using MeshLoader = std::function<TetMesh(const std::filesystem::path& path, const TetgenOptions& options)>;
Scene parseScene(const std::string& json_text, const std::filesystem::path& path, const std::vector<std::string>& overrides = {},
                 const MeshLoader& load_mesh = {});

// Applies a `--set KEY=VALUE` override: a parameter key (see `qnsim params`) or
// material.NAME.PARAMETER for the material entry called NAME.
void applyOverride(Scene& scene, const std::string& key, const std::string& value);
// The same for "KEY=VALUE" as typed after --set; throws qnsim::Error when there is no '='.
void applyOverride(Scene& scene, std::string_view assignment);

// The pieces of applyOverride that live edits of a running simulation share (core/sim/live_override.h).
// Splits "material.NAME.PARAMETER"; false for a parameter key.
bool splitMaterialKey(const std::string& key, std::string& name, std::string& parameter);
// A copy of `material` with the key's PARAMETER parsed from `value`; errors name the key.
std::unique_ptr<Material> overrideMaterial(const Material& material, const std::string& key, const std::string& value);
// The error for a material key whose NAME no material has.
Error noMaterialNamed(const std::string& key, const std::string& name);

}  // namespace qnsim
