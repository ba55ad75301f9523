// Simulation::apply: every edit of a running simulation, checked in full before anything changes, then
// doing what its declared effect asks (qnsim/edit.h). Settings and materials live in the scene; pins,
// drags, removed elements and the rest of the dynamic state in the SimState.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/scene/scene_parser.h"
#include "core/sim/simulation_impl.h"
#include "qnsim/parameters.h"

namespace qnsim {
namespace {

void checkVertex(const Model& model, int v, const char* what) {
  if (v < 0 || v >= model.vertexCount()) throw error(what, ": vertex ", v, " does not exist (the model has ", model.vertexCount(), ")");
}

void checkDrags(const Model& model, const std::vector<Drag>& drags) {
  for (const Drag& d : drags) {
    checkVertex(model, d.vertex, "drag");
    if (!(std::isfinite(d.stiffness) && d.stiffness >= 0)) throw error("drag: the stiffness must be 0 or more and finite, got ", d.stiffness);
    if (!d.target.allFinite()) throw error("drag: the target of vertex ", d.vertex, " is not finite");
  }
}

void checkPinStiffness(double stiffness) {
  if (!(std::isfinite(stiffness) && stiffness > 0)) throw error("pin: the stiffness must be positive and finite, got ", stiffness);
}

// The region of the scene's material `name` (the regions are named after them); the error names `what`.
int regionNamed(const Model& model, const std::string& name, const std::string& what) {
  for (size_t r = 0; r < model.regions.size(); ++r)
    if (model.regions[r].name == name) return static_cast<int>(r);
  throw noMaterialNamed(what, name);
}

// The (vertex, stiffness) sequence of the attachments: what A holds of them.
std::vector<std::pair<int, double>> attachmentTerms(const Model& model) {
  std::vector<std::pair<int, double>> terms;
  for (const Attachment& a : model.attachments) terms.emplace_back(a.vertex, a.stiffness);
  return terms;
}

bool contains(const std::vector<int>& sorted, int v) { return std::binary_search(sorted.begin(), sorted.end(), v); }

}  // namespace

EditResult Simulation::Impl::apply(const Edit& edit) {
  return std::visit(
      [this](const auto& e) -> EditResult {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, SetParameter>) return setParameter(e);
        else if constexpr (std::is_same_v<T, SetMaterial>) return setMaterial(e.region, e.material);
        else if constexpr (std::is_same_v<T, PinVertices>) return pin(e);
        else if constexpr (std::is_same_v<T, UnpinVertices>) return unpin(e);
        else if constexpr (std::is_same_v<T, SetDrag>) return setDrag(e);
        else if constexpr (std::is_same_v<T, Cut>) return cut(e);
        else if constexpr (std::is_same_v<T, SetCollider>) return setCollider(e);
        else if constexpr (std::is_same_v<T, LoadState>) return load(e.state);
        else return reset();
      },
      edit);
}

EditResult Simulation::Impl::setParameter(const SetParameter& edit) {
  std::string name, constant;
  const std::string* text = std::get_if<std::string>(&edit.value);
  if (splitMaterialKey(edit.key, name, constant)) {
    const Material& material = *built.model.regions[regionNamed(built.model, name, edit.key)].material;
    const double* number = std::get_if<double>(&edit.value);
    const int* integer = std::get_if<int>(&edit.value);
    if (!text && !number && !integer) throw error(edit.key, ": expected a number");
    const double value = text ? parseMaterialValue(material, edit.key, *text) : number ? *number : *integer;
    return setMaterial(name, overrideMaterial(material, edit.key, value));
  }
  const SettingParameter& p = findParameter(edit.key);
  Settings edited = settings();
  qnsim::setParameter(edited, p, text && p.type != Parameter::Type::Choice ? parseParameter(p, *text) : edit.value);
  if (p.get(edited) == p.get(settings())) return {};
  scene.settings = edited;
  if (p.effect == Effect::NewSystemMatrix) {
    updateStiffness(built.model, settings().solver.stiffness_interval);
    requestRefactor(state.removed);  // the methods are remade on the new A
  } else if (p.effect == Effect::NewDirectionSolver) {
    createMethods();
  } else {
    method->setSettings(settings().solver);
  }
  return {p.effect};
}

// The material takes effect at once in g; k and A follow its declared effect.
EditResult Simulation::Impl::setMaterial(const std::string& name, std::shared_ptr<const Material> material) {
  Region& region = built.model.regions[regionNamed(built.model, name, "material edit")];
  const bool solid = dynamic_cast<const SolidMaterial*>(material.get()) != nullptr;
  if (!material || solid != region.is_solid())
    throw error("material edit: '", name, "' needs a ", region.is_solid() ? "solid" : "spring", " material");
  const Effect effect = material->editEffect(*region.material);
  region.material = material;
  for (BodyDesc& body : scene.bodies)
    for (MaterialDesc& m : body.materials)
      if (m.name == name) m.material = material;  // the scene and the model share one material
  if (effect == Effect::NewSystemMatrix) {
    region.stiffness = regionStiffness(region, settings().solver.stiffness_interval);
    requestRefactor(state.removed);
  } else if (effect == Effect::NewDirectionSolver) {
    createMethods();
  }
  return {effect};
}

EditResult Simulation::Impl::pin(const PinVertices& edit) {
  checkPinStiffness(edit.stiffness);
  const Model& model = built.model;
  for (int v : edit.vertices) checkVertex(model, v, "pin");  // all checked first: a bad index changes nothing
  if (!edit.points.empty() && edit.points.size() != edit.vertices.size())
    throw error("pin: ", edit.points.size(), " points for ", edit.vertices.size(), " vertices");
  for (const Vec3& p : edit.points)
    if (!p.allFinite()) throw error("pin: the points must be finite");
  std::vector<char> attached(model.vertexCount(), 0);
  for (const Attachment& a : model.attachments) attached[a.vertex] = 1;
  const size_t before = state.pins.size();
  for (size_t i = 0; i < edit.vertices.size(); ++i) {
    const int v = edit.vertices[i];
    if (!attached[v]) attached[v] = 1, state.pins.push_back({v, edit.points.empty() ? Vec3(vertex(state.x, v)) : edit.points[i], edit.stiffness});
  }
  if (state.pins.size() == before) return {};
  attachmentsChanged();
  requestRefactor(state.removed);
  return {Effect::NewSystemMatrix};
}

EditResult Simulation::Impl::unpin(const UnpinVertices& edit) {
  for (int v : edit.vertices) checkVertex(built.model, v, "unpin");
  std::vector<int> release = edit.vertices;
  std::sort(release.begin(), release.end());
  const size_t pins = state.pins.size(), released = state.released.size();
  std::erase_if(state.pins, [&](const Pin& p) { return contains(release, p.vertex); });
  for (const Attachment& a : scene_attachments)
    if (contains(release, a.vertex) && !contains(state.released, a.vertex))
      state.released.insert(std::upper_bound(state.released.begin(), state.released.end(), a.vertex), a.vertex);
  if (state.pins.size() == pins && state.released.size() == released) return {};
  attachmentsChanged();
  requestRefactor(state.removed);
  return {Effect::NewSystemMatrix};
}

EditResult Simulation::Impl::setDrag(const SetDrag& edit) {
  checkDrags(built.model, edit.drags);
  state.drags = edit.drags;
  return {};
}

EditResult Simulation::Impl::setCollider(const SetCollider& edit) {
  if (edit.index < 0 || edit.index >= static_cast<int>(scene.colliders.size()))
    throw error("collider ", edit.index, " does not exist (the scene has ", scene.colliders.size(), ")");
  const Collider& c = edit.collider;
  if (c.shape != scene.colliders[edit.index].shape) throw error("collider '", c.name, "': an edit cannot change its shape");
  const bool finite = c.position.allFinite() && c.rotation.allFinite() && c.half_extents.allFinite() && std::isfinite(c.radius) &&
                      std::isfinite(c.half_length) && std::isfinite(c.major_radius) && std::isfinite(c.minor_radius);
  if (!finite) throw error("collider '", c.name, "': its pose and size must be finite");
  if (!(c.rotation * c.rotation.transpose()).isIdentity(1e-9) || !(c.rotation.determinant() > 0))
    throw error("collider '", c.name, "': its rotation must be a rotation matrix");
  const bool positive = c.radius > 0 && c.half_length >= 0 && c.major_radius > 0 && c.minor_radius > 0 && c.minor_radius <= c.major_radius &&
                        (c.half_extents.array() > 0).all();
  if (!positive) throw error("collider '", c.name, "': its sizes must be positive (a torus's minor radius at most its major one)");
  scene.colliders[edit.index] = c;
  state.collider_poses.clear();  // a collider placed by hand is where it was put, and the others back on their script
  poseColliders(state.time);
  standColliders();
  return {};
}

EditResult Simulation::Impl::cut(const Cut& edit) {
  if (!edit.apex.allFinite() || !edit.u.allFinite() || !edit.v.allFinite()) throw error("cut: the wedge's apex and rays must be finite");
  EditResult result;
  result.removed = removeElements(built.model, elementsCrossedBy(built.model, state.x, {edit.apex, edit.u, edit.v}));
  if (result.removed > 0) {
    topologyChanged();
    if (settings().removal_matrix == RemovalMatrix::Refactor) requestRefactor(state.removed), result.effect = Effect::NewSystemMatrix;
  }
  return result;
}

void Simulation::Impl::tear() {
  torn = removeElements(built.model, overstretchedElements(built.model, state.x));
  if (torn == 0) return;
  topologyChanged();
  if (settings().removal_matrix == RemovalMatrix::Refactor) requestRefactor(state.removed);
}

// After elements were removed or brought back: surfaces, self-collision primitives and the vertices
// left without elements follow.
void Simulation::Impl::topologyChanged() {
  ++topology_version;
  detached = verticesWithoutElements(built.model);
  self_collision = std::make_unique<SelfCollision>(built.model);
  self_barrier = std::make_unique<SelfBarrier>(self_collision->primitives());
  if (barrier && settings().self_collision.enabled) {  // torn within a frame: its barrier holds the new surfaces
    self_barrier->beginFrame(state.x, barrier->dhat());
    barrier->setSelf(self_barrier.get());
  }
  guard.reset();  // made again, on the new surfaces, at the next frame's start
  for (int v : detached) vertex(state.v, v).setZero();
  state.removed = removedElements(built.model);
}

// Body by body, the attachments are the scene handles' (less those released) followed by the body's
// pins in the order they were made: the same state gives the same model, and so does the scene
// savedScene() writes, whose pins are handles after the body's own.
void Simulation::Impl::attachmentsChanged() {
  Model& model = built.model;
  model.attachments.clear();
  for (HandleState& h : built.handles) h.attachments.clear(), h.rest.clear();
  size_t next = 0;  // scene_attachments are in body order
  for (const Body& body : model.bodies) {
    const int end = body.first_vertex + body.vertex_count;
    for (; next < scene_attachments.size() && scene_attachments[next].vertex < end; ++next) {
      const Attachment& a = scene_attachments[next];
      if (contains(state.released, a.vertex)) continue;
      HandleState& h = built.handles[a.handle];
      h.attachments.push_back(static_cast<int>(model.attachments.size()));
      h.rest.push_back(a.target);  // as built: the rest position
      model.attachments.push_back(a);
    }
    for (const Pin& p : state.pins)
      if (p.vertex >= body.first_vertex && p.vertex < end) model.attachments.push_back({p.vertex, p.stiffness, p.point, -1});
  }
  updateHandleTargets(built.handles, state.time, model);
}

namespace {

void checkState(const SimState& s, const Model& model, size_t colliders) {
  const Eigen::Index n = 3 * model.vertexCount();
  if (s.x.size() != n) throw error("state: it has ", s.x.size() / 3, " vertices but the model has ", n / 3);
  if (s.v.size() != n) throw error("state: it has ", s.v.size() / 3, " velocities but the model has ", n / 3, " vertices");
  if (s.x_previous.size() != n || s.v_previous.size() != n) throw error("state: the previous step's positions and velocities need ", n / 3, " vertices");
  if (!s.x.allFinite() || !s.v.allFinite() || !s.x_previous.allFinite() || !s.v_previous.allFinite())
    throw error("state: positions and velocities must be finite");
  if (!std::isfinite(s.time) || s.frame < 0) throw error("state: frame ", s.frame, " at time ", s.time, " is not a valid time");
  for (const ElementSet* set : {&s.removed, &s.matrix_removed}) {
    for (int e : set->tets)
      if (e < 0 || e >= model.tets.size()) throw error("state: removed tet ", e, " does not exist (the model has ", model.tets.size(), ")");
    for (int e : set->springs)
      if (e < 0 || e >= model.springs.size()) throw error("state: removed spring ", e, " does not exist (the model has ", model.springs.size(), ")");
  }
  for (const Pin& p : s.pins) {
    checkVertex(model, p.vertex, "state: pin");
    checkPinStiffness(p.stiffness);
    if (!p.point.allFinite()) throw error("state: the pin of vertex ", p.vertex, " is not finite");
  }
  for (int v : s.released) checkVertex(model, v, "state: released");
  if (!std::is_sorted(s.released.begin(), s.released.end())) throw error("state: 'released' must be increasing");
  checkDrags(model, s.drags);
  if (!s.rotations.empty() && static_cast<int>(s.rotations.size()) != model.tets.size())
    throw error("state: ", s.rotations.size(), " rotations for ", model.tets.size(), " tets");
  if (!(s.spectral_radius >= 0 && s.spectral_radius < 1)) throw error("state: the spectral radius must be in [0, 1), got ", s.spectral_radius);
  if (!(s.barrier_stiffness >= 0 && std::isfinite(s.barrier_stiffness)))
    throw error("state: the barrier stiffness must be finite and >= 0, got ", s.barrier_stiffness);
  if (!s.collider_poses.empty() && s.collider_poses.size() != colliders)
    throw error("state: ", s.collider_poses.size(), " collider poses for the scene's ", colliders, " colliders");
  for (const ColliderPose& c : s.collider_poses)
    if (!c.position.allFinite() || !(c.rotation * c.rotation.transpose()).isIdentity(1e-9) || !(c.rotation.determinant() > 0))
      throw error("state: a collider pose must have a finite position and a rotation matrix");
}

}  // namespace

// A loaded state (or Reset's initial one) replaces the dynamic state; the model follows it (removed
// elements, attachments), and A is refactored when what it holds differs from what the state's A held.
// The scene's start again, with what the user made of the scene kept (qnsim/edit.h, Reset).
EditResult Simulation::Impl::reset() {
  SimState start = initial;
  start.pins = state.pins;
  start.released = state.released;
  solve = {};
  record = {};
  rel_error.clear();
  return load(start);
}

EditResult Simulation::Impl::load(const SimState& loaded) {
  checkState(loaded, built.model, scene.colliders.size());
  const std::vector<std::pair<int, double>> attachments = attachmentTerms(built.model);
  if (setRemovedElements(built.model, loaded.removed)) topologyChanged();
  state = loaded;
  state.removed = removedElements(built.model);  // in order
  state.rotations.clear();
  state.spectral_radius = 0;
  attachmentsChanged();
  EditResult result;
  if (loaded.matrix_removed != matrix_removed || attachmentTerms(built.model) != attachments) {
    requestRefactor(loaded.matrix_removed);
    history_for_new_method = loaded;  // what the state's next frame starts from, for the method on the new A
    result.effect = Effect::NewSystemMatrix;
  }
  method->loadHistory(loaded);
  torn = 0;
  objective->contacts.clear();
  objective->self_contacts.clear();
  objective->frictions.clear();
  poseColliders(state.time);
  standColliders();
  measure(0.0);
  return result;
}

SimState Simulation::Impl::currentState() const {
  SimState s = state;
  s.matrix_removed = matrix_removed;
  if (!refactorPending()) {
    method->saveHistory(s);
  } else if (history_for_new_method) {  // the next frame's method is the one on the new A
    s.rotations = history_for_new_method->rotations;
    s.spectral_radius = history_for_new_method->spectral_radius;
  }
  return s;
}

ParameterValue Simulation::value(const std::string& key) const {
  std::string name, constant;
  if (!splitMaterialKey(key, name, constant)) return findParameter(key).get(settings());
  const Model& model = impl_->built.model;
  const Material& material = *model.regions[regionNamed(model, name, key)].material;
  try {
    return material.get(constant);
  } catch (const Error& e) {
    throw error(key, ": ", e.what());
  }
}

}  // namespace qnsim
