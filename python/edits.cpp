// Live edits of a Simulation between frames, as the sandbox makes them: pins, drags, materials, cuts, and
// the dynamic state (save, load, set). Each is an Edit for Simulation::apply, which checks it.
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/model/removal.h"
#include "python/simulation_handle.h"
#include "qnsim/error.h"

namespace qnsim::python {
namespace {

using Rows = py::array_t<double, py::array::c_style | py::array::forcecast>;

// An (n, 3) array of doubles as a 3n vector (a copy); `what` names it in the error.
VecX flatRows(const Rows& rows, const char* what) {
  if (rows.ndim() != 2 || rows.shape(1) != 3) throw error(what, ": expected an array of shape (n, 3), got ", py::str(rows.attr("shape")).cast<std::string>());
  return Eigen::Map<const VecX>(rows.data(), rows.size());
}

// The mouse drag of the sandbox, as a SetDrag edit (checked by Simulation::apply).
SetDrag dragEdit(const std::vector<int>& vertices, const Rows& targets, const std::vector<double>& stiffness) {
  const VecX target = flatRows(targets, "drag targets");
  if (target.size() != 3 * static_cast<Eigen::Index>(vertices.size()))
    throw error("drag: ", vertices.size(), " vertices but ", target.size() / 3, " targets");
  if (stiffness.size() != 1 && stiffness.size() != vertices.size())
    throw error("drag: one stiffness or one per vertex (", vertices.size(), "), got ", stiffness.size());
  SetDrag edit;
  for (size_t i = 0; i < vertices.size(); ++i) edit.drags.push_back({vertices[i], target.segment<3>(3 * i), stiffness[stiffness.size() == 1 ? 0 : i]});
  return edit;
}

// A region (by name, or by index into sim.regions) as its name.
std::string regionName(const Simulation& sim, py::handle region) {
  if (py::isinstance<py::str>(region)) return region.cast<std::string>();  // apply checks the name
  const std::vector<Region>& regions = sim.model().regions;
  const int index = region.cast<int>();
  if (index < 0 || index >= static_cast<int>(regions.size()))
    throw error("material edit: region ", index, " does not exist (the model has ", regions.size(), ")");
  return regions[index].name;
}

// A region's material with some constants changed, or a new material of another model, as one edit.
void setMaterial(Simulation& sim, py::handle region, const std::optional<std::string>& model, const py::kwargs& constants) {
  const std::string name = regionName(sim, region);
  std::shared_ptr<Material> material;
  if (model) {
    material = makeMaterial(*model);
  } else {
    for (const Region& r : sim.model().regions)
      if (r.name == name) material = r.material->clone();
    if (!material) {  // apply names the materials there are
      sim.apply(SetMaterial{name, nullptr});
      return;
    }
  }
  for (const auto& [key, value] : constants) material->set(key.cast<std::string>(), value.cast<double>());
  sim.apply(SetMaterial{name, std::move(material)});
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
         "pin", [](SimulationHandle& h, const std::vector<int>& vertices, double stiffness) { h.sim().apply(PinVertices{vertices, stiffness}); },
         py::arg("vertices"), py::arg("stiffness"),
         "Holds vertices where they are now with attachment springs of this stiffness (N/m); vertices already attached are\n"
         "skipped. A = M/h^2 + L is refactored on a worker thread and used from the next frame on.")
      .def(
          "unpin", [](SimulationHandle& h, const std::vector<int>& vertices) { h.sim().apply(UnpinVertices{vertices}); }, py::arg("vertices"),
          "Releases every attachment on these vertices (the scene's handles' too).")
      .def_property_readonly(
          "attached_vertices", [](SimulationHandle& h) { return attachedVertices(h.sim()); },
          "The vertices held by attachment springs (the scene's handles and pins), sorted, int32.")
      .def(
          "set_drag",
          [](SimulationHandle& h, const std::vector<int>& vertices, const Rows& targets, py::handle stiffness) {
            const std::vector<double> k = py::isinstance<py::sequence>(stiffness) ? stiffness.cast<std::vector<double>>()
                                                                                   : std::vector<double>{stiffness.cast<double>()};
            h.sim().apply(dragEdit(vertices, targets, k));
          },
          py::arg("vertices"), py::arg("targets"), py::arg("stiffness"),
          "Pulls vertices towards targets ((k, 3)) with springs k/2 |x - target|^2 (one stiffness, or one per vertex), as the\n"
          "sandbox's mouse drag: in g and its gradient only, so nothing is refactored. Replaces the previous drag.")
      .def(
          "clear_drag", [](SimulationHandle& h) { h.sim().apply(SetDrag{}); }, "Removes the drag.")
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
          "kind with its defaults and those keywords, as one edit. The constants' declared effect decides what follows: k\n"
          "refitted (Eq. 11) and A refactored on a worker thread, used from the next frame on.")
      .def_property_readonly(
          "refactor_pending", [](SimulationHandle& h) { return h.sim().refactorPending(); },
          "Whether an edit's refactorisation of A is still running on its worker thread (the next step waits for it).")
      .def(
          "finish_refactor", [](SimulationHandle& h) { h.sim().finishRefactor(); }, py::call_guard<py::gil_scoped_release>(),
          "Waits for a pending refactorisation and swaps it in now (the next step would do it too).")
      .def(
          "cut",
          [](SimulationHandle& h, const std::vector<double>& apex, const std::vector<double>& u, const std::vector<double>& v) {
            return h.sim().apply(Cut{point(apex, "apex"), point(u, "u"), point(v, "v")}).removed;
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
          "save_scene",
          [](SimulationHandle& h, const std::filesystem::path& path, bool removed) { writeScene(h.sim().savedScene(removed), path); },
          py::arg("path"), py::arg("removed_elements") = false,
          "Writes the scene with every edit made (settings, materials, colliders, pins as handles, released handle\n"
          "vertices; with removed_elements=True the torn and cut elements too) as a scene file. Opened fresh, it runs as\n"
          "this simulation does after reset().")
      .def(
          "save_state", [](SimulationHandle& h, const std::filesystem::path& path) { writeState(path, h.sim().state()); }, py::arg("path"),
          "Writes the whole dynamic state (SimState: frame, time, positions, velocities, the previous step, removed\n"
          "elements, pins, the drag and what the method carries between frames) as JSON, the sandbox's format. A\n"
          "simulation of the same scene and edits that loads it continues exactly as this one does. Settings and\n"
          "materials are not part of it.")
      .def(
          "load_state", [](SimulationHandle& h, const std::filesystem::path& path) { h.sim().apply(LoadState{readState(path)}); },
          py::arg("path"),
          "Reads a state written by save_state (or the sandbox) into this simulation of the same scene: its removed\n"
          "elements and pins change A as cuts and pins do.")
      .def(
          "state",
          [](SimulationHandle& h) {
            const SimState s = h.sim().state();
            return py::dict(py::arg("frame") = s.frame, py::arg("time") = s.time, py::arg("positions") = rowsCopy(s.x),
                            py::arg("velocities") = rowsCopy(s.v));
          },
          "The dynamic state as a dict of copies: frame, time, positions (n, 3), velocities (n, 3).")
      .def(
          "set_state",
          [](SimulationHandle& h, const Rows& positions, const Rows& velocities, std::optional<int> frame, std::optional<double> time) {
            Simulation& sim = h.sim();
            SimState s = sim.state();
            s.frame = frame.value_or(s.frame);
            s.time = time.value_or(s.time);
            s.x = s.x_previous = flatRows(positions, "state positions");
            s.v = s.v_previous = flatRows(velocities, "state velocities");
            sim.apply(LoadState{std::move(s)});
          },
          py::arg("positions"), py::arg("velocities"), py::arg("frame") = py::none(), py::arg("time") = py::none(),
          "Starts from positions and velocities ((n, 3) each, copied), and optionally frame and time (else kept), as if\n"
          "the run began there (the previous step is the same); removed elements, pins and the drag stay as they are.");
}

}  // namespace qnsim::python
