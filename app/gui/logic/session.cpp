#include "app/gui/logic/session.h"

#include <algorithm>
#include <filesystem>

#include "core/common/error.h"
#include "core/scene/catalog.h"

namespace qnsim::gui {

std::string resolveScenePath(const std::string& path) {
  if (path.empty() || std::filesystem::exists(path)) return path;
  const std::filesystem::path in_tree = std::filesystem::path(QNSIM_SOURCE_DIR) / path;
  return std::filesystem::exists(in_tree) ? in_tree.string() : path;
}

std::unique_ptr<Session> loadSession(const std::string& path, const std::vector<std::string>& overrides, bool threaded) {
  Scene scene = loadScene(resolveScenePath(path), overrides);
  auto session = std::make_unique<Session>();
  session->path = path;
  session->name = scene.name;
  session->description = scene.description;
  session->colliders = scene.colliders;
  session->camera = scene.camera;
  auto sim = std::make_unique<Simulation>(std::move(scene));
  const Model& model = sim->model();
  for (const Region& r : model.regions) session->regions.push_back({r.name, r.is_solid(), std::shared_ptr<Material>(r.material->clone())});
  session->settings = sim->settings();
  session->rest = model.rest;
  for (int v = 0; v < model.vertexCount(); ++v) session->all_vertices.push_back(v);
  session->tets = model.tets.size();
  session->springs = model.springs.size();
  const double h = session->settings.time_step;
  session->typical_diagonal = (assembleLaplacian(model).diagonal() + model.mass / (h * h)).mean();
  session->runner = std::make_unique<SimRunner>(std::move(sim), threaded);
  return session;
}

std::vector<std::string> catalogScenes() {
  std::vector<std::string> out;
  for (const std::string& name : catalogSceneNames()) out.push_back("scenes/" + name + ".json");
  return out;
}

}  // namespace qnsim::gui
