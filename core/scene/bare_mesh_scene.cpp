// A bare mesh file opens as a scene of its own: the mesh, in its own units, dropped from a quarter of its
// size onto a ground plane, with a corotated material whose stiffness is scaled to the mesh so that it
// neither sags flat nor looks rigid whatever the units: mu = 20 rho g L (L the bounding-box diagonal).
#include "core/material/models.h"
#include "core/mesh/mesh_io.h"
#include "core/scene/bare_mesh_scene.h"
#include "qnsim/error.h"

namespace qnsim {

Scene sceneForBareMesh(const std::filesystem::path& path) {
  Scene scene;
  scene.path = path;
  scene.name = path.stem().string();
  scene.description = "The mesh " + path.filename().string() + " dropped on a ground plane (default scene for a bare mesh).";
  scene.frames = 150;

  BodyDesc body;
  body.name = scene.name;
  body.source = path.string();
  body.mesh = readTetMesh(path);
  const Vec3 lo = body.mesh.V.colwise().minCoeff(), hi = body.mesh.V.colwise().maxCoeff();
  const double size = (hi - lo).norm();
  const Vec3 shift(-0.5 * (lo.x() + hi.x()), 0.25 * size - lo.y(), -0.5 * (lo.z() + hi.z()));
  body.mesh.V.rowwise() += shift.transpose();

  const double mu = 20.0 * body.density * 9.81 * size;
  auto material = std::make_shared<Corotated>();
  material->set("mu", mu);
  material->set("lambda", 4.0 * mu);
  body.materials.push_back({body.name, -1, material, {}, std::nullopt});
  scene.bodies.push_back(std::move(body));

  scene.colliders.push_back({});  // the ground plane y = 0
  scene.colliders.back().name = "ground";
  // Stiff enough that the resting mesh sinks well under 1 % of its size (0.4 % at most for the hippo),
  // soft enough that the line search, whose direction ignores contacts (they stay out of A), does not
  // backtrack much: 3 trials per iteration on the hippo where 10 mu L needed 6.
  scene.settings.contact_stiffness = mu * size;
  scene.camera.given = true;
  scene.camera.target = Vec3(0, 0.5 * size, 0);
  scene.camera.eye = scene.camera.target + Vec3(0.3 * size, 0.4 * size, 1.6 * size);
  return scene;
}

}  // namespace qnsim
