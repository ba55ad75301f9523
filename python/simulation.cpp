// Simulation: stepping without the GIL, the state as NumPy views, settings through the registry (as
// --set), and the last frame's telemetry.
#include <pybind11/stl/filesystem.h>

#include "python/simulation_handle.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"

namespace qnsim::python {

Simulation& SimulationHandle::sim() {
  if (stepping_) throw Error("the simulation is stepping in another thread; call it from that thread or after step() returns");
  return sim_;
}

void SimulationHandle::step(int frames) {
  if (frames < 0) throw error("step: n must be 0 or more, got ", frames);
  Simulation& simulation = sim();
  struct Stepping {  // cleared however the loop ends (a diverged frame, Ctrl+C)
    bool& flag;
    explicit Stepping(bool& f) : flag(f) { flag = true; }
    ~Stepping() { flag = false; }
  } stepping(stepping_);
  for (int f = 0; f < frames; ++f) {
    {
      py::gil_scoped_release unlocked;
      simulation.step();
    }
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
}

namespace {

SimulationHandle& handle(py::handle self) { return self.cast<SimulationHandle&>(); }

// A 3n vector (x y z x y z ...) as an (n, 3) view.
py::array rowsView(const VecX& x, py::handle owner) {
  return readOnlyView(x.data(), {x.size() / 3, 3}, {3 * sizeof(double), sizeof(double)}, owner);
}

std::unique_ptr<SimulationHandle> makeSimulation(const Scene& scene, bool reference) {
  py::gil_scoped_release unlocked;  // building the model and factoring A can take a while
  auto made = std::make_unique<SimulationHandle>(scene);
  made->sim().setReferenceEnabled(reference);
  return made;
}

// Every body's surface triangles (global vertex indices): a view when there is one body, else a copy.
py::array surfaceTriangles(const Model& model, py::handle owner) {
  if (model.bodies.size() == 1) {
    const TriIndices& F = model.bodies.front().surface;
    return readOnlyView(F.data(), {F.rows(), 3}, {3 * sizeof(int), sizeof(int)}, owner);
  }
  py::ssize_t rows = 0;
  for (const Body& body : model.bodies) rows += body.surface.rows();
  py::array_t<int> all({rows, py::ssize_t(3)});
  int* out = all.mutable_data();
  for (const Body& body : model.bodies) out = std::copy(body.surface.data(), body.surface.data() + body.surface.size(), out);
  all.attr("setflags")(py::arg("write") = false);
  return all;
}

}  // namespace

void bindSimulation(py::module_& m) {
  SimulationClass cls(m, "Simulation",
                      "A running simulation of a Scene: one backward Euler frame (or another integrator's) per step, solved by the\n"
                      "method the settings choose. The same object the qnsim program and the sandbox drive.");
  cls.def(py::init(&makeSimulation), py::arg("scene"), py::arg("reference") = false,
          "Builds the model of a scene (the scene is copied). reference=True solves every frame exactly as well and fills\n"
          "the rel_error column of last_iterations (Eq. 12), as `qnsim run --reference`.")
      .def(py::init([](const std::filesystem::path& path, bool reference) {
             return makeSimulation(loadScene(path), reference);
           }),
           py::arg("path"), py::arg("reference") = false, "The same for the scene file (or bare mesh) at path.")
      .def("step", [](SimulationHandle& h, int n) { h.step(n); }, py::arg("n") = 1,
           "Advances n frames without holding the GIL. Ctrl+C stops between frames (KeyboardInterrupt) with the state of\n"
           "the last finished frame; a diverged frame raises qnsim.Error.")
      .def("reset", [](SimulationHandle& h) { h.sim().apply(Reset{}); },
           "Back to the scene's initial positions and velocities at time 0: removed elements come back and the drag goes;\n"
           "what was made of the scene stays (settings, materials, colliders, pins and unpinned handle vertices).")
      .def_property_readonly("frame", [](SimulationHandle& h) { return h.sim().frame(); }, "Frames stepped since the start.")
      .def_property_readonly("time", [](SimulationHandle& h) { return h.sim().time(); }, "Simulated time (s).")
      .def_property_readonly("vertex_count", [](SimulationHandle& h) { return h.sim().model().vertexCount(); })
      .def_property_readonly("scene", [](SimulationHandle& h) { return h.sim().scene(); },
                             "A copy of the scene with the edits of its settings, materials and colliders (save_scene adds the pins).")
      .def_property_readonly(
          "positions", [](py::object self) { return rowsView(handle(self).sim().positions(), self); },
          "Current positions, (n, 3) float64: a read-only view that follows the simulation (copy() to keep a frame).")
      .def_property_readonly(
          "velocities", [](py::object self) { return rowsView(handle(self).sim().velocities(), self); },
          "Current velocities, (n, 3) float64: a read-only view that follows the simulation.")
      .def_property_readonly(
          "rest_positions", [](py::object self) { return rowsView(handle(self).sim().model().rest, self); },
          "Rest positions X, (n, 3) float64, read-only.")
      .def_property_readonly(
          "masses",
          [](py::object self) {
            const VecX& mass = handle(self).sim().model().mass;
            return readOnlyView(mass.data(), {mass.size()}, {sizeof(double)}, self);
          },
          "Lumped vertex masses, (n,) float64, read-only.")
      .def_property_readonly(
          "tets",
          [](py::object self) {
            const std::vector<Eigen::Vector4i>& tets = handle(self).sim().model().tets.vertices;
            static_assert(sizeof(Eigen::Vector4i) == 4 * sizeof(int), "tets are packed int[4]");
            return readOnlyView(tets.empty() ? nullptr : tets.front().data(), {py::ssize_t(tets.size()), 4}, {4 * sizeof(int), sizeof(int)},
                                self);
          },
          "Tetrahedra as vertex indices, (m, 4) int32, read-only (m = 0 for cloth), in the model's spatially coherent\n"
          "order, not the mesh file's (the vertices keep the file's).")
      .def_property_readonly(
          "surface_triangles", [](py::object self) { return surfaceTriangles(handle(self).sim().model(), self); },
          "Every body's outward surface triangles as vertex indices, (k, 3) int32, read-only.")
      .def_property_readonly(
          "bodies",
          [](SimulationHandle& h) {
            py::list out;
            for (const Body& b : h.sim().model().bodies)
              out.append(py::dict(py::arg("name") = b.name, py::arg("first_vertex") = b.first_vertex,
                                  py::arg("vertex_count") = b.vertex_count, py::arg("is_cloth") = b.is_cloth));
            return out;
          },
          "The bodies: name, their vertices [first_vertex, first_vertex + vertex_count), is_cloth.")
      .def(
          "set", [](SimulationHandle& h, const std::string& key, py::handle value) { h.sim().apply(SetParameter{key, parameterText(value)}); },
          py::arg("key"), py::arg("value"),
          "Sets a parameter (see parameters()) or a material constant \"material.NAME.PARAMETER\" between frames, checked as\n"
          "`qnsim run --set KEY=VALUE` checks it (qnsim.Error with the same message) and applied as its declared effect asks.")
      .def(
          "get", [](SimulationHandle& h, const std::string& key) { return toPython(h.sim().value(key)); }, py::arg("key"),
          "The current value of a parameter or of a material constant \"material.NAME.PARAMETER\".")
      .def_property_readonly(
          "settings",
          [](SimulationHandle& h) {
            py::dict out;
            for (const SettingParameter& p : parameters()) out[py::str(p.key)] = toPython(p.get(h.sim().settings()));
            return out;
          },
          "Every parameter's current value by key (a copy; change them with set()).")
      .def_property(
          "reference", [](SimulationHandle& h) { return h.sim().referenceEnabled(); },
          [](SimulationHandle& h, bool enabled) { h.sim().setReferenceEnabled(enabled); },
          "Whether each step also solves its frame exactly to report relative errors (Eq. 12) in last_iterations.")
      .def_property_readonly(
          "last_frame", [](SimulationHandle& h) { return h.sim().lastFrame(); },
          "The last frame's FrameRecord (the frame CSV's row), a copy.")
      .def_property_readonly(
          "last_warning", [](SimulationHandle& h) { return h.sim().lastWarning(); },
          "Why the last frame was rolled back (its solve diverged), or '' when it was not.")
      .def_property_readonly(
          "last_iterations",
          [](SimulationHandle& h) {
            Simulation& sim = h.sim();
            return iterationTable(sim.lastFrame().frame, sim.lastSolve().iterations, sim.lastRelativeErrors());
          },
          "The last frame's iterations (the iteration CSV's rows) as a structured array of ITERATION_DTYPE: frame, iter,\n"
          "g, grad_norm, alpha, ls_trials, time_ms, rel_error (NaN without reference=True) and fallback.")
      .def("__repr__", [](SimulationHandle& h) {
        return "<qnsim.Simulation '" + h.sim().scene().name + "' frame " + std::to_string(h.sim().frame()) + ">";
      });
  bindEdits(cls);
  bindCompare(cls);
}

}  // namespace qnsim::python
