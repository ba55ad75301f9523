// Live edits of a Simulation between frames, as the sandbox makes them: pins, drags, materials, cuts, and
// the dynamic state (save, load, set). Each goes through the Simulation's own edit and its checks.
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/common/error.h"
#include "core/sim/state_io.h"
#include "python/simulation_handle.h"

namespace qnsim::python {
namespace {

using Rows = py::array_t<double, py::array::c_style | py::array::forcecast>;

// An (n, 3) array of doubles as a 3n vector (a copy); `what` names it in the error.
VecX flatRows(const Rows& rows, const char* what) {
  if (rows.ndim() != 2 || rows.shape(1) != 3) throw error(what, ": expected an array of shape (n, 3), got ", py::str(rows.attr("shape")).cast<std::string>());
  return Eigen::Map<const VecX>(rows.data(), rows.size());
}

void checkVertex(const Simulation& sim, int v, const char* what) {
  if (v < 0 || v >= sim.model().vertexCount())
    throw error(what, ": vertex ", v, " does not exist (the model has ", sim.model().vertexCount(), ")");
}

// The mouse drag of the sandbox: k/2 |x_v - target|^2 in g and grad g only, so it never refactors A.
void setDrag(Simulation& sim, const std::vector<int>& vertices, const Rows& targets, const std::vector<double>& stiffness) {
  const VecX target = flatRows(targets, "drag targets");
  if (target.size() != 3 * static_cast<Eigen::Index>(vertices.size()))
    throw error("drag: ", vertices.size(), " vertices but ", target.size() / 3, " targets");
  if (stiffness.size() != 1 && stiffness.size() != vertices.size())
    throw error("drag: one stiffness or one per vertex (", vertices.size(), "), got ", stiffness.size());
  std::vector<DragTerm> drags;
  for (size_t i = 0; i < vertices.size(); ++i) {
    checkVertex(sim, vertices[i], "drag");
    const double k = stiffness[stiffness.size() == 1 ? 0 : i];
    if (!(std::isfinite(k) && k >= 0)) throw error("drag: the stiffness must be 0 or more and finite, got ", k);
    if (!target.segment<3>(3 * i).allFinite()) throw error("drag: the target of vertex ", vertices[i], " is not finite");
    drags.push_back({vertices[i], target.segment<3>(3 * i), k});
  }
  sim.objective().drags = std::move(drags);
}

int regionIndex(const Simulation& sim, py::handle region) {
  const std::vector<Region>& regions = sim.model().regions;
  if (py::isinstance<py::str>(region)) {
    const std::string name = region.cast<std::string>();
    for (size_t r = 0; r < regions.size(); ++r)
      if (regions[r].name == name) return static_cast<int>(r);
    std::string known;
    for (const Region& r : regions) known += (known.empty() ? "'" : ", '") + r.name + "'";
    throw error("material edit: no region is named '", name, "' (the regions: ", known, ")");
  }
  return region.cast<int>();  // setMaterial checks the range
}

// A region's material with some constants changed, or a new material of another model.
void setMaterial(Simulation& sim, py::handle region, const std::optional<std::string>& model, const py::kwargs& constants) {
  const int index = regionIndex(sim, region);
  const std::vector<Region>& regions = sim.model().regions;
  const bool exists = index >= 0 && index < static_cast<int>(regions.size());
  std::unique_ptr<Material> material = model ? makeMaterial(*model) : exists ? regions[index].material->clone() : nullptr;
  if (material)
    for (const auto& [name, value] : constants) material->set(name.cast<std::string>(), value.cast<double>());
  sim.setMaterial(index, std::move(material));  // checks the region and the material's kind
}

py::list regions(const Simulation& sim) {
  py::list out;
  for (const Region& r : sim.model().regions) {
    py::dict constants;
    for (const MaterialParameter& p : r.material->parameters()) constants[py::str(p.key)] = r.material->get(p.key);
    out.append(py::dict(py::arg("name") = r.name, py::arg("model") = std::string(r.material->model()), py::arg("solid") = r.is_solid(),
                        py::arg("stiffness") = r.stiffness, py::arg("parameters") = constants));
  }
  return out;
}

py::array attachedVertices(const Simulation& sim) {
  std::vector<int> vertices;
  for (const Attachment& a : sim.model().attachments) vertices.push_back(a.vertex);
  std::sort(vertices.begin(), vertices.end());
  vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
  return py::array_t<int>(static_cast<py::ssize_t>(vertices.size()), vertices.data());
}

py::array rowsCopy(const VecX& x) { return py::array_t<double>({x.size() / 3, Eigen::Index(3)}, x.data()); }

py::array indices(const std::vector<int>& v) { return py::array_t<int>(static_cast<py::ssize_t>(v.size()), v.data()); }

Vec3 point(const std::vector<double>& xyz, const char* what) {
  if (xyz.size() != 3 || !Eigen::Map<const Vec3>(xyz.data()).allFinite()) throw error("cut: ", what, " must be 3 finite numbers");
  return Eigen::Map<const Vec3>(xyz.data());
}

}  // namespace

void bindEdits(SimulationClass& cls) {
  cls.def(
         "pin", [](SimulationHandle& h, const std::vector<int>& vertices, double stiffness) { h.sim().pinVertices(vertices, stiffness); },
         py::arg("vertices"), py::arg("stiffness"),
         "Holds vertices where they are now with attachment springs of this stiffness (N/m); vertices already attached are\n"
         "skipped. A = M/h^2 + L is refactored in the background and used from the first frame after it is ready.")
      .def(
          "unpin", [](SimulationHandle& h, const std::vector<int>& vertices) { h.sim().unpinVertices(vertices); }, py::arg("vertices"),
          "Releases every attachment on these vertices (the scene's handles' too).")
      .def_property_readonly(
          "attached_vertices", [](SimulationHandle& h) { return attachedVertices(h.sim()); },
          "The vertices held by attachment springs (the scene's handles and pins), sorted, int32.")
      .def(
          "set_drag",
          [](SimulationHandle& h, const std::vector<int>& vertices, const Rows& targets, py::handle stiffness) {
            const std::vector<double> k = py::isinstance<py::sequence>(stiffness) ? stiffness.cast<std::vector<double>>()
                                                                                   : std::vector<double>{stiffness.cast<double>()};
            setDrag(h.sim(), vertices, targets, k);
          },
          py::arg("vertices"), py::arg("targets"), py::arg("stiffness"),
          "Pulls vertices towards targets ((k, 3)) with springs k/2 |x - target|^2 (one stiffness, or one per vertex), as the\n"
          "sandbox's mouse drag: in g and its gradient only, so nothing is refactored. Replaces the previous drag.")
      .def(
          "clear_drag", [](SimulationHandle& h) { h.sim().objective().drags.clear(); }, "Removes the drag.")
      .def_property_readonly(
          "regions", [](SimulationHandle& h) { return regions(h.sim()); },
          "The material regions: name (the scene's material entry), model, solid, stiffness k (Eq. 11) and parameters.")
      .def(
          "set_material",
          [](SimulationHandle& h, py::handle region, const std::optional<std::string>& model, const py::kwargs& constants) {
            setMaterial(h.sim(), region, model, constants);
          },
          py::arg("region"), py::arg("model") = py::none(),
          "Changes a region's material (by index or name): its constants as keywords (mu=2e5), or a new model of the same\n"
          "kind with its defaults and those keywords. k is refitted and A refactored in the background.")
      .def_property_readonly(
          "refactor_pending", [](SimulationHandle& h) { return h.sim().refactorPending(); },
          "Whether an edit's refactorisation of A is still running in the background.")
      .def(
          "finish_refactor", [](SimulationHandle& h) { h.sim().finishRefactor(); }, py::call_guard<py::gil_scoped_release>(),
          "Waits for a pending refactorisation and uses it from the next frame on (for reproducible scripts).")
      .def(
          "cut",
          [](SimulationHandle& h, const std::vector<double>& apex, const std::vector<double>& u, const std::vector<double>& v) {
            return h.sim().cut({point(apex, "apex"), point(u, "u"), point(v, "v")});
          },
          py::arg("apex"), py::arg("u"), py::arg("v"),
          "Removes the tets and springs crossed by the wedge {apex + s u + t v : s, t >= 0} at the current positions (the\n"
          "sandbox's cut tool: apex the eye, u and v the rays through the ends of the dragged line) and returns how many\n"
          "were removed, with the cloth springs that go with them. tearing.matrix says whether A is refactored.")
      .def_property_readonly(
          "removed_tets", [](SimulationHandle& h) { return indices(removedElements(h.sim().model()).tets); },
          "The tets removed so far (torn or cut), increasing indices into tets, int32.")
      .def_property_readonly(
          "removed_springs", [](SimulationHandle& h) { return indices(removedElements(h.sim().model()).springs); },
          "The springs removed so far (torn or cut), increasing indices, int32.")
      .def(
          "save_state", [](SimulationHandle& h, const std::filesystem::path& path) { writeState(path, h.sim().state()); }, py::arg("path"),
          "Writes frame, time, positions, velocities and the removed elements as JSON (the sandbox's format). Edits are not\n"
          "part of it.")
      .def(
          "load_state", [](SimulationHandle& h, const std::filesystem::path& path) { h.sim().restoreState(readState(path)); },
          py::arg("path"),
          "Reads a state written by save_state (or the sandbox) into this simulation of the same model, with exactly its\n"
          "removed elements.")
      .def(
          "state",
          [](SimulationHandle& h) {
            const Simulation::State s = h.sim().state();
            return py::dict(py::arg("frame") = s.frame, py::arg("time") = s.time, py::arg("positions") = rowsCopy(s.x),
                            py::arg("velocities") = rowsCopy(s.v));
          },
          "The dynamic state as a dict of copies: frame, time, positions (n, 3), velocities (n, 3).")
      .def(
          "set_state",
          [](SimulationHandle& h, const Rows& positions, const Rows& velocities, std::optional<int> frame, std::optional<double> time) {
            Simulation& sim = h.sim();
            sim.restoreState({frame.value_or(sim.frame()), time.value_or(sim.time()), flatRows(positions, "state positions"),
                              flatRows(velocities, "state velocities"), removedElements(sim.model())});
          },
          py::arg("positions"), py::arg("velocities"), py::arg("frame") = py::none(), py::arg("time") = py::none(),
          "Sets positions and velocities ((n, 3) each, copied), and optionally frame and time (else kept); the removed\n"
          "elements stay as they are.");
}

}  // namespace qnsim::python
