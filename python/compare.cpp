// sim.compare_next_frame: the sandbox's Compare tab for scripts. The next frame is solved by each method
// from the current state, and exactly, without advancing (Simulation::compareNextFrame).
#include "python/simulation_handle.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"

namespace qnsim::python {
namespace {

// {label: {key: value}} as qnsim Methods: each edit as --set would write it. compareNextFrame checks them
// (a method may change only solver settings that keep A).
std::vector<Method> methodsOf(const py::dict& methods) {
  std::vector<Method> out;
  for (const auto& [label, edits] : methods) {
    Method m{py::str(label), {}};
    for (const auto& [key, value] : edits.cast<py::dict>()) m.edits.push_back(std::string(py::str(key)) + "=" + parameterText(value));
    out.push_back(std::move(m));
  }
  return out;
}

py::dict compareNextFrame(SimulationHandle& handle, const py::dict& methods) {
  Simulation& sim = handle.sim();
  const std::vector<Method> wanted = methodsOf(methods);
  std::vector<MethodTrace> traces;
  {
    py::gil_scoped_release unlocked;
    traces = sim.compareNextFrame(wanted);
  }
  py::dict out;
  for (const MethodTrace& t : traces) out[py::str(t.label)] = iterationTable(sim.frame() + 1, t.result.iterations, t.rel_error);
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
