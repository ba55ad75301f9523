// sim.compare_next_frame: the sandbox's Compare tab for scripts. The next frame is solved by each method
// from the current state, and exactly, without advancing (Simulation::compareNextFrame).
#include "core/common/error.h"
#include "core/params/parameters.h"
#include "python/simulation_handle.h"

namespace qnsim::python {
namespace {

// A method's solver settings: the current settings with its edits, parsed as --set. Every method
// shares the current A, so an edit outside solver.* or one that needs a new A is refused, not ignored.
SolverSettings methodSettings(const Simulation& sim, const py::dict& edits) {
  Settings settings = sim.settings();
  for (const auto& [key, value] : edits) {
    const std::string name = py::str(key);
    const SettingParameter& p = findParameter(name);
    if (name.rfind("solver.", 0) != 0 || p.effect == Effect::NewSystemMatrix)
      throw error("compare: ", name, " is not a solver setting that keeps A = M/h^2 + L; compare it with a Simulation of its own");
    setParameter(settings, p, parseParameter(p, parameterText(value)));
  }
  return settings.solver;
}

py::dict compareNextFrame(SimulationHandle& handle, const py::dict& methods) {
  Simulation& sim = handle.sim();
  std::vector<std::string> labels;
  std::vector<SolverSettings> settings;
  for (const auto& [label, edits] : methods) {
    labels.push_back(py::str(label));
    settings.push_back(methodSettings(sim, edits.cast<py::dict>()));
  }
  std::vector<Simulation::MethodTrace> traces;
  {
    py::gil_scoped_release unlocked;
    traces = sim.compareNextFrame(settings);
  }
  py::dict out;
  for (size_t m = 0; m < traces.size(); ++m)
    out[py::str(labels[m])] = iterationTable(sim.frame() + 1, traces[m].result.iterations, traces[m].rel_error);
  return out;
}

}  // namespace

void bindCompare(SimulationClass& cls) {
  cls.def("compare_next_frame", &compareNextFrame, py::arg("methods"),
          "Solves the next frame from the current state with each method and exactly, without advancing, as the\n"
          "sandbox's Compare tab. methods: {label: {solver key: value}}, e.g. {\"pd\": {\"solver.method\": \"pd\"},\n"
          "\"lbfgs\": {\"solver.lbfgs_window\": 5}}; every edit is checked as --set. Returns {label: iteration table},\n"
          "with rel_error (Eq. 12) against one exact solution shared by all methods.");
}

}  // namespace qnsim::python
