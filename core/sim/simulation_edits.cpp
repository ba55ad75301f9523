// Live edits of a running Simulation: materials, pins, removed elements (tearing and cutting), state. A
// changes with them; it is refactored on a worker thread from a private copy of the model, so the frame
// loop never waits for a factorisation.
#include <algorithm>
#include <cmath>

#include "core/common/error.h"
#include "core/sim/damping.h"
#include "core/sim/simulation.h"

namespace qnsim {
namespace {

// What assembleLaplacian reads, copied so that the worker shares nothing with the frame loop.
Model copyForAssembly(const Model& m) {
  Model copy;
  copy.rest = m.rest;
  copy.mass = m.mass;
  copy.tets = m.tets;
  copy.springs = m.springs;
  copy.attachments = m.attachments;
  for (const Region& r : m.regions) copy.regions.push_back({r.name, r.material->clone(), r.fiber, r.stiffness});
  return copy;
}

constexpr const char* kPinHandle = "pinned";

}  // namespace

void Simulation::requestRefactor() {
  if (refactorPending()) {
    pending_is_stale_ = true;  // relaunched with the newest model when this one finishes
    return;
  }
  pending_is_stale_ = pending_is_obsolete_ = false;
  auto model = std::make_shared<Model>(copyForAssembly(built_.model));
  const double weight = inertiaWeight(), scale = stiffnessScale(), damping = materialDampingWeight(settings_);
  pending_system_ = std::async(std::launch::async,
                               [model, weight, scale, damping] { return std::make_unique<SystemMatrix>(*model, weight, scale, damping); });
}

void Simulation::adoptRefactor(bool wait) {
  while (refactorPending()) {
    if (!wait && pending_system_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    std::unique_ptr<SystemMatrix> fresh = pending_system_.get();
    if (!pending_is_obsolete_) {
      // A stale factor is still newer than A: swapping it in keeps a stream of edits (a tear every frame)
      // from holding the old A forever. Keep the factorisation count monotonic (telemetry reports it).
      retired_factorizations_ += system_->factorizations();
      system_ = std::move(fresh);
      createSolvers();
    }
    if (pending_is_stale_) requestRefactor();
  }
}

void Simulation::setMaterial(int region, std::unique_ptr<Material> material) {
  if (region < 0 || region >= static_cast<int>(built_.model.regions.size()))
    throw error("material edit: region ", region, " does not exist (the model has ", built_.model.regions.size(), ")");
  Region& r = built_.model.regions[region];
  const bool solid = dynamic_cast<const SolidMaterial*>(material.get()) != nullptr;
  if (!material || solid != r.is_solid())
    throw error("material edit: region '", r.name, "' needs a ", r.is_solid() ? "solid" : "spring", " material");
  r.material = std::move(material);
  const double stiffness = r.stiffness;
  r.stiffness = regionStiffness(r, settings_.solver.stiffness_interval);
  if (r.stiffness != stiffness) requestRefactor();  // k is all A holds of a material (tear_strain applies live)
}

void Simulation::pinVertices(const std::vector<int>& vertices, double stiffness) {
  if (!(std::isfinite(stiffness) && stiffness > 0)) throw error("pin: the stiffness must be positive and finite, got ", stiffness);
  Model& model = built_.model;
  for (int v : vertices)  // all checked first, so that a bad index leaves the model as it was
    if (v < 0 || v >= model.vertexCount()) throw error("pin: vertex ", v, " does not exist (the model has ", model.vertexCount(), ")");
  std::vector<char> attached(model.vertexCount(), 0);
  for (const Attachment& a : model.attachments) attached[a.vertex] = 1;
  auto handle = std::find_if(built_.handles.begin(), built_.handles.end(), [](const HandleState& h) { return h.name == kPinHandle; });
  if (handle == built_.handles.end()) {
    HandleDesc desc;
    desc.name = kPinHandle;
    desc.stiffness = stiffness;
    built_.handles.push_back({"", kPinHandle, desc, Vec3::Zero(), {}, {}});
    handle = built_.handles.end() - 1;
  }
  const int index = static_cast<int>(handle - built_.handles.begin());
  bool changed = false;
  for (int v : vertices) {
    if (attached[v]) continue;
    attached[v] = 1;
    handle->attachments.push_back(static_cast<int>(model.attachments.size()));
    handle->rest.push_back(vertex(x_, v));  // no motion: the target stays at the rest point
    model.attachments.push_back({v, stiffness, vertex(x_, v), index});
    changed = true;
  }
  if (changed) requestRefactor();
}

void Simulation::unpinVertices(const std::vector<int>& vertices) {
  Model& model = built_.model;
  std::vector<char> release(model.vertexCount(), 0);
  for (int v : vertices)
    if (v >= 0 && v < model.vertexCount()) release[v] = 1;
  std::vector<int> new_index(model.attachments.size(), -1);
  std::vector<Attachment> kept;
  for (size_t i = 0; i < model.attachments.size(); ++i)
    if (!release[model.attachments[i].vertex]) {
      new_index[i] = static_cast<int>(kept.size());
      kept.push_back(model.attachments[i]);
    }
  if (kept.size() == model.attachments.size()) return;
  model.attachments = std::move(kept);
  for (HandleState& h : built_.handles) {
    std::vector<int> attachments;
    std::vector<Vec3> rest;
    for (size_t i = 0; i < h.attachments.size(); ++i)
      if (new_index[h.attachments[i]] >= 0) {
        attachments.push_back(new_index[h.attachments[i]]);
        rest.push_back(h.rest[i]);
      }
    h.attachments = std::move(attachments);
    h.rest = std::move(rest);
  }
  requestRefactor();
}

void Simulation::tear() {
  torn_ = removeElements(built_.model, overstretchedElements(built_.model, x_));
  if (torn_ > 0) topologyChanged();
}

int Simulation::cut(const CutWedge& wedge) {
  const int removed = removeElements(built_.model, elementsCrossedBy(built_.model, x_, wedge));
  if (removed > 0) topologyChanged();
  return removed;
}

// Every change of the removed elements (tearing, cuts, reset, a loaded state) does to A what
// tearing.matrix says: nothing, or a refactorisation in the background; self-collisions take the new
// surfaces.
void Simulation::topologyChanged() {
  ++topology_version_;
  detached_ = verticesWithoutElements(built_.model);
  self_collision_ = std::make_unique<SelfCollision>(built_.model);  // its surfaces and segments followed
  for (int v : detached_) vertex(v_, v).setZero();
  if (settings_.removal_matrix == RemovalMatrix::Refactor) requestRefactor();
}

void Simulation::restoreState(const State& state) {
  if (state.x.size() != x_.size() || state.v.size() != v_.size())
    throw error("state: it has ", state.x.size() / 3, " vertices but the model has ", x_.size() / 3);
  try {
    if (setRemovedElements(built_.model, state.removed)) topologyChanged();
  } catch (const Error& e) {
    throw error("state: ", e.what());
  }
  torn_ = 0;
  frame_ = state.frame;
  time_ = state.time;
  x_ = state.x;
  v_ = state.v;
  frame_method_->forgetHistory();
  objective_->contacts.clear();
  objective_->self_contacts.clear();
  updateHandleTargets(built_.handles, time_, built_.model);
  measure(0.0);
}

}  // namespace qnsim
