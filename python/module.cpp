// The Python module qnsim: scenes, simulations, the parameter registry, telemetry and the paper's
// experiments, over the same core library as the qnsim program.
#include "python/bindings.h"
#include "qnsim/error.h"
#include "qnsim/version.h"

namespace py = pybind11;

PYBIND11_MODULE(qnsim, m) {
  m.doc() =
      "Real-time hyperelastic simulation with the quasi-Newton method of Liu, Bouaziz and Kavan (2017).\n\n"
      "load_scene(path) reads a scene file, Simulation(scene) runs it, sim.step(n) advances it; positions and\n"
      "velocities are read-only NumPy views, settings go through the same registry as `qnsim run --set`,\n"
      "and sim.last_frame / sim.last_iterations hold the telemetry of the frame CSV and iteration CSV.";
  m.attr("__version__") = qnsim::version();
  m.attr("sparse_backend") = qnsim::sparseBackend();
  // Every failure the core reports (bad file, unknown key, out-of-range value, diverged simulation)
  // arrives as qnsim.Error with the message the CLI prints. It is both a RuntimeError (as qnsim::Error
  // is a std::runtime_error) and a ValueError (what Python code expects of a bad argument).
  const py::tuple bases = py::make_tuple(py::handle(PyExc_RuntimeError), py::handle(PyExc_ValueError));
  py::register_exception<qnsim::Error>(m, "Error", bases).doc() = "A failure reported by qnsim, with the message the CLI prints.";

  qnsim::python::bindParameters(m);
  qnsim::python::bindScene(m);
  qnsim::python::bindTelemetry(m);
  qnsim::python::bindSimulation(m);
  qnsim::python::bindExperiments(m);
  qnsim::python::bindExport(m);
}
