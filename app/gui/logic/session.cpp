#include "app/gui/logic/session.h"

#include <algorithm>
#include <filesystem>

#include "core/mesh/mesh_io.h"
#include "core/mesh/quality.h"
#include "core/scene/bare_mesh_scene.h"
#include "core/scene/catalog.h"
#include "qnsim/error.h"

namespace qnsim::gui {

std::unique_ptr<Session> loadSession(const std::string& path, const std::vector<std::string>& overrides, bool threaded,
                                     const TetgenOptions& tetgen) {
  const std::filesystem::path resolved = resolveScenePath(path);
  const bool surface = isSurfaceFile(resolved) && std::filesystem::exists(resolved);
  Scene scene = surface ? sceneForBareMesh(resolved, overrides, tetgen) : loadScene(resolved, overrides);
  auto session = std::make_unique<Session>();
  if (surface) session->mesh_quality = describeQuality(meshQuality(scene.bodies.front().mesh));
  session->path = path;
  session->name = scene.name;
  session->description = scene.description;
  session->colliders = scene.colliders;
  session->camera = scene.camera;
  // Threaded (the window): a new A is swapped in when ready, so no frame waits for it; stepped by the
  // caller (scripts, screenshots): at the next frame, so a run is the same every time.
  auto sim = std::make_unique<Simulation>(std::move(scene), SimulationOptions{.wait_for_refactor = !threaded});
  const Model& model = sim->model();
  session->rest = model.rest;
  for (int v = 0; v < model.vertexCount(); ++v) session->all_vertices.push_back(v);
  session->tets = model.tets.size();
  session->springs = model.springs.size();
  const double h = sim->settings().time_step;
  session->typical_diagonal = (assembleLaplacian(model).diagonal() + model.mass / (h * h)).mean();
  session->runner = std::make_unique<SimRunner>(std::move(sim), threaded);
  return session;
}

std::vector<std::string> catalogScenes() {
  std::vector<std::string> out;
  for (const std::string& name : catalogSceneNames()) out.push_back("scenes/" + name + ".json");
  return out;
}

std::string defaultSavePath(const std::string& scene_path) {
  return std::filesystem::path(scene_path).stem().string() + "_edited.json";
}

}  // namespace qnsim::gui
