#include "core/sim/build_model.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/common/memory_budget.h"
#include "core/mesh/embedding.h"
#include "core/mesh/surface.h"
#include "core/scene/perturb.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {

// A body's materials as model regions, found by the tag they name. A mesh's tags are whatever its file
// says (negative, sparse or huge numbers); the material without "region" takes every tag no material
// names. Cloth tags are 0 (stretch springs) and 1 (bend springs). Materials with a selection are applied
// afterwards (applySelections).
class RegionTags {
 public:
  struct Selected {
    const MaterialDesc* material;
    int region;
  };

  RegionTags(Model& model, const BodyDesc& body) {
    for (const MaterialDesc& m : body.materials) {
      const int region = addRegion(model, m.name, m.material, m.fiber);
      if (m.select) selected_.push_back({&m, region});
      else if (m.region < 0) fallback_ = region;
      else named_[m.region] = region;
    }
  }
  int regionOf(int tag) const {  // -1 when no material applies
    const auto named = named_.find(tag);
    return named != named_.end() ? named->second : fallback_;
  }
  const std::vector<Selected>& selected() const { return selected_; }

 private:
  std::map<int, int> named_;
  int fallback_ = -1;
  std::vector<Selected> selected_;  // in scene order: a later one wins where they overlap
};

// Gives each material with a selection the elements of its tag whose vertices all lie in the selection.
void applySelections(const RegionTags& tags, const BodyDesc& body, Model& model) {
  const Body& b = model.bodies.back();
  const MatX3& V = body.mass_spring ? body.springs.surface.V : body.mesh.V;
  for (const auto& [material, region] : tags.selected()) {
    std::vector<char> inside(V.rows(), 0);
    for (int v : selectVertices(*material->select, V, body.mass_spring ? nullptr : &body.mesh))
      if (v >= 0 && v < V.rows()) inside[v] = 1;
    const int material_tag = material->region;  // clang 14 cannot capture a structured binding
    const auto takes = [&](int tag, auto vertices) {
      if (material_tag >= 0 && material_tag != tag) return false;
      for (int v : vertices)
        if (!inside[v - b.first_vertex]) return false;
      return true;
    };
    int taken = 0;
    const int stretch_springs = body.mass_spring ? static_cast<int>(body.springs.stretch_springs.rows()) : 0;
    for (int s = b.first_spring; s < b.first_spring + b.spring_count; ++s)
      if (takes(s - b.first_spring < stretch_springs ? 0 : 1, model.springs.vertices[s])) model.springs.region[s] = region, ++taken;
    for (int e = b.first_tet; e < b.first_tet + b.tet_count; ++e)
      if (takes(body.mesh.region[b.mesh_tet[e - b.first_tet]], model.tets.vertices[e])) model.tets.region[e] = region, ++taken;
    if (taken == 0) throw error("body '", body.name, "': material '", material->name, "' selects no element");
  }
}

std::vector<int> tetRegions(const RegionTags& tags, const BodyDesc& body) {
  std::vector<int> tet_region(body.mesh.region.size());
  for (size_t e = 0; e < tet_region.size(); ++e) {
    const int tag = body.mesh.region[static_cast<Eigen::Index>(e)];
    tet_region[e] = tags.regionOf(tag);
    if (tet_region[e] < 0)
      throw error("body '", body.name, "': region ", tag, " has no material (add one with \"region\": ", tag, " or one without \"region\")");
  }
  return tet_region;
}

void addBody(BuiltModel& built, const BodyDesc& body) {
  Model& model = built.model;
  const int first = model.vertexCount();
  const RegionTags tags(model, body);
  if (body.mass_spring) {
    const int regions[2] = {tags.regionOf(0), tags.regionOf(1)};
    if (regions[0] < 0 || regions[1] < 0)
      throw error("body '", body.name, "': a ", body.source, " body needs materials for the stretch and bend springs");
    addSpringBody(model, body.name, body.springs, regions[0], regions[1], body.density, body.strand_radius);
  } else {
    addTetBody(model, body.name, body.mesh, body.density, tetRegions(tags, body));
    model.bodies.back().surface = boundaryFaces(body.mesh.T).array() + first;
    if (body.render.F.rows() > 0)
      model.bodies.back().render = std::make_shared<const RenderMesh>(embedSurface(body.render, body.mesh.V, body.mesh.T, first, body.render_source));
  }
  applySelections(tags, body, model);
  for (int v = first; v < model.vertexCount(); ++v)
    if (!(model.mass[v] > 0)) throw error("body '", body.name, "': vertex ", v - first, " is not used by any element");
  built.velocity.conservativeResize(3 * model.vertexCount());
  for (int v = first; v < model.vertexCount(); ++v) vertex(built.velocity, v) = body.velocity;
  const MatX3 initial = perturbedPositions(body.perturb, body.mass_spring ? body.springs.surface.V : body.mesh.V);
  built.initial.conservativeResize(3 * model.vertexCount());
  built.initial.tail(initial.size()) = flatten(initial);
}

// The position of vertex v in a handle's `positions`, which follow select.indices as written.
size_t heldIndex(const HandleDesc& h, int v) {
  return static_cast<size_t>(std::find(h.select.indices.begin(), h.select.indices.end(), v) - h.select.indices.begin());
}

void addHandles(BuiltModel& built, const BodyDesc& body, int first) {
  const MatX3& V = body.mass_spring ? body.springs.surface.V : body.mesh.V;
  for (const HandleDesc& h : body.handles) {
    const std::vector<int> selected = selectVertices(h.select, V, body.mass_spring ? nullptr : &body.mesh);
    if (selected.empty()) throw error("body '", body.name, "': handle '", h.name, "' selects no vertices");
    HandleState state{body.name, h.name, h, Vec3::Zero(), {}, {}};
    for (size_t i = 0; i < selected.size(); ++i) {
      const int v = selected[i];
      if (v < 0 || v >= V.rows())
        throw error("body '", body.name, "': handle '", h.name, "' selects vertex ", v, " but the body has ", V.rows());
      // Held where `positions` says (in the order of the indices, which selectVertices sorts) or at rest.
      const Vec3 held = h.positions.empty() ? Vec3(V.row(v)) : h.positions[heldIndex(h, v)];
      state.attachments.push_back(static_cast<int>(built.model.attachments.size()));
      state.rest.push_back(held);
      built.model.attachments.push_back({first + v, h.stiffness, held, static_cast<int>(built.handles.size())});
      state.center += held;
    }
    state.center = h.has_center ? h.center : Vec3(state.center / selected.size());
    built.handles.push_back(std::move(state));
  }
}

}  // namespace

BuiltModel buildModel(const Scene& scene) {
  ModelSize size;
  for (const BodyDesc& body : scene.bodies)
    size += body.mass_spring ? ModelSize{0, 0, double(body.springs.surface.V.rows()),
                                         double(body.springs.stretch_springs.rows() + body.springs.bend_springs.rows())}
                          : ModelSize{double(body.mesh.V.rows()), double(body.mesh.T.rows()), 0, 0};
  checkMemoryBudget(size, scene.settings.memory_share, scene.name.empty() ? "the scene" : "scene '" + scene.name + "'");
  BuiltModel built;
  for (const BodyDesc& body : scene.bodies) {
    const int first = built.model.vertexCount();
    addBody(built, body);
    addHandles(built, body, first);
    const Body& b = built.model.bodies.back();
    if (!body.removed.tets.empty()) {  // the scene names mesh tets
      const std::vector<int> model_tet = modelTetsInMeshOrder(b);
      for (int e : body.removed.tets) built.removed.tets.push_back(model_tet.at(e));
      std::sort(built.removed.tets.end() - body.removed.tets.size(), built.removed.tets.end());
    }
    for (int s : body.removed.springs) built.removed.springs.push_back(b.first_spring + s);
  }
  updateStiffness(built.model, scene.settings.solver.stiffness_interval);
  return built;
}

}  // namespace qnsim
