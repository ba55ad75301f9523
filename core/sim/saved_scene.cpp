// Simulation::savedScene: the edits that live in the state (pins, released handle vertices, removed
// elements) written into the scene, as handles and removed elements a scene file can hold.
#include <algorithm>

#include "core/sim/simulation_impl.h"

namespace qnsim {
namespace {

// The body's handles without the released vertices (model indices); a handle left with none is dropped.
void leaveOutReleased(BodyDesc& body, int first, const std::vector<int>& released) {
  const MatX3& V = body.mass_spring ? body.springs.surface.V : body.mesh.V;
  std::vector<HandleDesc> kept;
  for (HandleDesc& h : body.handles) {
    const std::vector<int> selected = selectVertices(h.select, V, body.mass_spring ? nullptr : &body.mesh);
    const auto isReleased = [&](int v) { return std::binary_search(released.begin(), released.end(), first + v); };
    if (std::none_of(selected.begin(), selected.end(), isReleased)) {
      kept.push_back(std::move(h));
      continue;
    }
    HandleDesc left = h;
    if (!h.has_center) {  // turning about the centre of all its vertices still, to the same bits
      Vec3 center = Vec3::Zero();
      for (int v : selected) center += h.positions.empty() ? Vec3(V.row(v)) : h.positions[std::find(h.select.indices.begin(), h.select.indices.end(), v) - h.select.indices.begin()];
      left.has_center = true;
      left.center = center / selected.size();
    }
    left.select = {};
    left.select.kind = Selection::Kind::Indices;
    left.positions.clear();
    for (size_t i = 0; i < selected.size(); ++i) {
      if (isReleased(selected[i])) continue;
      left.select.indices.push_back(selected[i]);
      if (!h.positions.empty()) left.positions.push_back(h.positions[std::find(h.select.indices.begin(), h.select.indices.end(), selected[i]) - h.select.indices.begin()]);
    }
    if (!left.select.indices.empty()) kept.push_back(std::move(left));
  }
  body.handles = std::move(kept);
}

// The body's pins as handles held at their points, one per run of increasing vertices of one stiffness,
// so that reading them back attaches them in the order they were made.
void addPins(BodyDesc& body, const Body& b, const std::vector<Pin>& pins) {
  int count = 0;
  for (const Pin& p : pins) {
    if (p.vertex < b.first_vertex || p.vertex >= b.first_vertex + b.vertex_count) continue;
    const int v = p.vertex - b.first_vertex;
    HandleDesc* run = count > 0 ? &body.handles.back() : nullptr;
    if (!run || run->stiffness != p.stiffness || run->select.indices.back() >= v) {
      HandleDesc h;
      h.name = count == 0 ? "pins" : "pins " + std::to_string(count + 1);
      h.select.kind = Selection::Kind::Indices;
      h.stiffness = p.stiffness;
      body.handles.push_back(std::move(h));
      run = &body.handles.back();
      ++count;
    }
    run->select.indices.push_back(v);
    run->positions.push_back(p.point);
  }
}

ElementSet bodyElements(const ElementSet& removed, const Body& b) {
  ElementSet out;
  for (int e : removed.tets)  // as the mesh's tets, which the scene names
    if (e >= b.first_tet && e < b.first_tet + b.tet_count) out.tets.push_back(b.mesh_tet[e - b.first_tet]);
  std::sort(out.tets.begin(), out.tets.end());
  for (int s : removed.springs)
    if (s >= b.first_spring && s < b.first_spring + b.spring_count) out.springs.push_back(s - b.first_spring);
  return out;
}

}  // namespace

Scene Simulation::savedScene(bool removed_elements) const {
  const Impl& impl = *impl_;
  Scene out = impl.scene;
  for (size_t i = 0; i < out.bodies.size(); ++i) {
    const Body& b = impl.built.model.bodies[i];
    leaveOutReleased(out.bodies[i], b.first_vertex, impl.state.released);
    addPins(out.bodies[i], b, impl.state.pins);
    if (removed_elements) out.bodies[i].removed = bodyElements(impl.state.removed, b);
  }
  return out;
}

}  // namespace qnsim
