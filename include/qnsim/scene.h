#pragma once
// A scene: what a scene file (docs/scene_format.md) describes, with its meshes loaded, or what a program
// builds from its own arrays (makeTetBody). A Simulation is made from one. The qnsim program, its tests
// and its benchmarks all build their simulations from Scenes loaded from the same files.
// Units: metres, kilograms, seconds; densities in kg/m^3 (cloth kg/m^2, strands kg/m).
// Errors: the loaders throw qnsim::Error naming the file and the JSON field or line of the problem.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qnsim/collider.h"
#include "qnsim/material.h"
#include "qnsim/mesh.h"
#include "qnsim/motion.h"
#include "qnsim/settings.h"
#include "qnsim/state.h"

namespace qnsim {

// The JSON a scene or one of its bodies was read from, kept so that writeScene writes back what the file
// said and changes only what was edited (core/scene/scene_source.h; opaque here). Null for what a
// program built in code.
struct SceneSource;

// Which vertices of a body a handle holds. Positions are in world coordinates (after placement).
struct Selection {
  enum class Kind { All, Box, Sphere, Indices, Region };
  Kind kind = Kind::All;
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();  // box
  Vec3 center = Vec3::Zero();                   // sphere
  double radius = 0;
  std::vector<int> indices;  // body vertex indices
  int region = 0;            // vertices of the tets with this region tag
  bool operator==(const Selection&) const = default;
};

struct HandleDesc {
  std::string name;
  Selection select;
  double stiffness = 1e4;  // attachment spring k (N/m)
  bool has_center = false;
  Vec3 center = Vec3::Zero();
  std::vector<MotionSegment> motion;  // target(t) = c + R(t) (X - c) + T(t), c = `center` or the rest centroid
  // Where each selected vertex is held (world coordinates, in the order of select.indices) instead of its
  // rest position X; empty: at X. A saved scene's pins are handles with positions.
  std::vector<Vec3> positions;
  bool operator==(const HandleDesc&) const = default;
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

// Initial positions other than the rest shape (the randomised hippo of Fig. 18), from a seeded generator
// whose numbers are the same on every platform and standard library.
struct PerturbDesc {
  enum class Kind { None, Random, UniformBox };
  Kind kind = Kind::None;
  std::uint64_t seed = 0;
  double amplitude = 0;  // random: each coordinate moves by a uniform amount in [-amplitude, amplitude] (m)
  double scale = 1;      // uniform_box: positions uniform in the rest bounding box scaled by this about its centre
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
  ElementSet removed;  // elements (body-local indices) removed from the start, as a saved cut leaves them
  std::shared_ptr<const SceneSource> origin;  // its entry in the scene file it was read from
  // Tet bodies: a detailed surface drawn and exported in place of the mesh's own, carried by the tets
  // (scene field "render_mesh"; docs/pipeline.md), placed like the mesh. render_source is the file as
  // the scene names it, empty when there is none.
  std::string render_source;
  RenderSurface render;
};

struct CameraDesc {
  bool given = false;
  Vec3 eye = Vec3(0, 1, 3), target = Vec3::Zero();
  double fov_degrees = 45;
  bool operator==(const CameraDesc&) const = default;
};

struct Scene {
  std::string name, description;
  std::filesystem::path path;  // the file it came from
  int frames = 300;            // default length of a headless run
  Settings settings;
  std::vector<BodyDesc> bodies;
  std::vector<Collider> colliders;
  CameraDesc camera;
  std::shared_ptr<const SceneSource> origin;  // the scene file it was read from
};

// Loads a scene file (.json), or a bare mesh file with a default scene around it (the mesh dropped
// on a ground plane). Throws qnsim::Error naming the file and the JSON field or line of the problem.
// `overrides` are `--set KEY=VALUE` assignments (applyOverride below), applied as if written in the
// file: settings before the bodies are read (so that memory_share governs them), materials after.
Scene loadScene(const std::filesystem::path& path, const std::vector<std::string>& overrides = {});
// The same for a scene file's text; mesh paths in it are relative to the folder of `path`.
Scene parseScene(const std::string& json_text, const std::filesystem::path& path, const std::vector<std::string>& overrides = {});

// A tet body from a program's own arrays: V (#V x 3, metres), T (#T x 4, 0-based, either orientation),
// one material for every tet (a SolidMaterial: makeMaterial("neo_hookean"), say) and a density (kg/m^3).
// The body's vertices keep their indices. Throws qnsim::Error naming the problem, as for a mesh file: an
// index out of range, a vertex no tet uses, a degenerate or inverted tet among consistently oriented ones.
BodyDesc makeTetBody(std::string name, MatX3 V, TetIndices T, std::shared_ptr<const Material> material, double density = 1000.0);

// Writes the scene as a scene file (docs/scene_format.md), atomically: what it was read from, as written,
// with every difference of `scene` from it (settings, materials, handles, colliders, removed elements)
// written in, settings and constants only where they differ from what the file said or from their
// defaults; mesh paths relative to the new file's folder. A body built in code has its mesh written
// beside the file (NAME.BODY.mesh). Reading the file gives `scene` again. Throws qnsim::Error naming the
// path when it cannot be written.
void writeScene(const Scene& scene, const std::filesystem::path& path);

// Applies a `--set KEY=VALUE` override: a parameter key (see `qnsim params`) or
// material.NAME.PARAMETER for the material entry called NAME.
void applyOverride(Scene& scene, const std::string& key, const std::string& value);
// The same for "KEY=VALUE" as typed after --set; throws qnsim::Error when there is no '='.
void applyOverride(Scene& scene, std::string_view assignment);

}  // namespace qnsim
