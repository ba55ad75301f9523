#include "core/sim/build_model.h"

#include <set>

#include "core/common/error.h"
#include "core/common/memory_budget.h"
#include "core/mesh/surface.h"

namespace qnsim {
namespace {

// Model regions for one body; returns the region index of each mesh tag (-1 where none applies).
std::vector<int> addRegions(Model& model, const BodyDesc& body, int max_tag) {
  std::vector<int> region_of_tag(max_tag + 1, -1);
  int fallback = -1;
  for (const MaterialDesc& m : body.materials) {
    const int region = addRegion(model, m.name, m.material->clone(), m.fiber);
    if (m.region < 0) fallback = region;
    else if (m.region <= max_tag) region_of_tag[m.region] = region;
  }
  for (int& r : region_of_tag)
    if (r < 0) r = fallback;
  return region_of_tag;
}

void addBody(BuiltModel& built, const BodyDesc& body) {
  Model& model = built.model;
  const int first = model.vertexCount();
  if (body.is_cloth) {
    const std::vector<int> regions = addRegions(model, body, 1);
    if (regions[0] < 0 || regions[1] < 0) throw error("body '", body.name, "': a cloth needs materials for the stretch and bend springs");
    addClothBody(model, body.name, body.cloth.surface, body.cloth.stretch_springs, regions[0], body.cloth.bend_springs, regions[1],
                 body.density);
  } else {
    const std::vector<int> regions = addRegions(model, body, body.mesh.region.maxCoeff());
    for (int e = 0; e < body.mesh.T.rows(); ++e)
      if (regions[body.mesh.region[e]] < 0)
        throw error("body '", body.name, "': region ", body.mesh.region[e], " has no material (add one with \"region\": ",
                    body.mesh.region[e], " or one without \"region\")");
    addTetBody(model, body.name, body.mesh, body.density, regions);
    model.bodies.back().surface = boundaryFaces(body.mesh.T).array() + first;
  }
  for (int v = first; v < model.vertexCount(); ++v)
    if (!(model.mass[v] > 0)) throw error("body '", body.name, "': vertex ", v - first, " is not used by any element");
  built.velocity.conservativeResize(3 * model.vertexCount());
  for (int v = first; v < model.vertexCount(); ++v) vertex(built.velocity, v) = body.velocity;
  const MatX3 initial = perturbedPositions(body.perturb, body.is_cloth ? body.cloth.surface.V : body.mesh.V);
  built.initial.conservativeResize(3 * model.vertexCount());
  built.initial.tail(initial.size()) = flatten(initial);
}

void addHandles(BuiltModel& built, const BodyDesc& body, int first) {
  const MatX3& V = body.is_cloth ? body.cloth.surface.V : body.mesh.V;
  for (const HandleDesc& h : body.handles) {
    const std::vector<int> selected = selectVertices(h.select, V, body.is_cloth ? nullptr : &body.mesh);
    if (selected.empty()) throw error("body '", body.name, "': handle '", h.name, "' selects no vertices");
    HandleState state{body.name, h.name, h, Vec3::Zero(), {}, {}};
    for (int v : selected) {
      if (v < 0 || v >= V.rows())
        throw error("body '", body.name, "': handle '", h.name, "' selects vertex ", v, " but the body has ", V.rows());
      state.attachments.push_back(static_cast<int>(built.model.attachments.size()));
      state.rest.push_back(V.row(v));
      built.model.attachments.push_back({first + v, h.stiffness, V.row(v), static_cast<int>(built.handles.size())});
      state.center += V.row(v).transpose();
    }
    state.center = h.has_center ? h.center : Vec3(state.center / selected.size());
    built.handles.push_back(std::move(state));
  }
}

}  // namespace

BuiltModel buildModel(const Scene& scene) {
  ModelSize size;
  for (const BodyDesc& body : scene.bodies)
    size += body.is_cloth ? ModelSize{0, 0, double(body.cloth.surface.V.rows()),
                                      double(body.cloth.stretch_springs.rows() + body.cloth.bend_springs.rows())}
                          : ModelSize{double(body.mesh.V.rows()), double(body.mesh.T.rows()), 0, 0};
  checkMemoryBudget(size, scene.settings.memory_share, scene.name.empty() ? "the scene" : "scene '" + scene.name + "'");
  BuiltModel built;
  for (const BodyDesc& body : scene.bodies) {
    const int first = built.model.vertexCount();
    addBody(built, body);
    addHandles(built, body, first);
  }
  updateStiffness(built.model, scene.settings.solver.stiffness_interval);
  return built;
}

}  // namespace qnsim
