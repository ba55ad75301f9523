// A bare mesh file opens as a scene of its own: the mesh, in its own units, dropped from a quarter of its
// size onto a ground plane, with a corotated material whose stiffness is scaled to the mesh so that it
// neither sags flat nor looks rigid whatever the units: mu = 20 rho g L (L the bounding-box diagonal).
// The scene is written as a scene file's JSON and read as one, so that it saves as one (writeScene).
#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/mesh/mesh_io.h"
#include "core/mesh/tetgen_parameters.h"
#include "core/params/parameter_json.h"
#include "core/scene/bare_mesh_scene.h"
#include "core/scene/scene_parser.h"

namespace qnsim {
namespace {

nlohmann::ordered_json vec(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

}  // namespace

Scene sceneForBareMesh(const std::filesystem::path& path, const std::vector<std::string>& overrides, const TetgenOptions& tetgen) {
  const TetMesh mesh = readTetMesh(path, tetgen);
  const Vec3 lo = mesh.V.colwise().minCoeff(), hi = mesh.V.colwise().maxCoeff();
  const double size = (hi - lo).norm();
  const Vec3 shift(-0.5 * (lo.x() + hi.x()), 0.25 * size - lo.y(), -0.5 * (lo.z() + hi.z()));
  const double density = BodyDesc().density;
  const double mu = 20.0 * density * 9.81 * size;
  const Vec3 target(0, 0.5 * size, 0);
  const std::string name = path.stem().string();
  nlohmann::ordered_json scene = {
      {"version", 1},
      {"name", name},
      {"description", "The mesh " + path.filename().string() + " dropped on a ground plane (default scene for a bare mesh)."},
      {"frames", 150},
      // Stiff enough that the resting mesh sinks well under 1 % of its size (0.4 % at most for the hippo),
      // soft enough that the line search, whose direction ignores contacts (they stay out of A), does not
      // backtrack much: 3 trials per iteration on the hippo where 10 mu L needed 6.
      {"contact_stiffness", std::min(mu * size, 1e12)},  // within the setting's range for meshes in odd units
      {"bodies", {{{"name", name}, {"mesh", path.filename().string()}, {"translate", vec(shift)},
                   {"materials", {{{"model", "corotated"}, {"mu", mu}, {"lambda", 4.0 * mu}}}}}}},
      {"colliders", {{{"type", "plane"}, {"name", "ground"}}}},
      {"camera", {{"eye", vec(target + Vec3(0.3 * size, 0.4 * size, 1.6 * size))}, {"target", vec(target)}}}};
  // How a surface was filled, so that the scene saved from here fills it the same way when read back.
  if (isSurfaceFile(path))
    for (const auto& [p, value] : changedTetgenOptions(tetgen)) scene["bodies"][0]["tetgen"][p->key] = parameterToJson(value);
  // The mesh is read once, above; the scene's body takes it from here.
  return parseScene(scene.dump(), path, overrides, [&](const std::filesystem::path&, const TetgenOptions&) { return mesh; });
}

}  // namespace qnsim
