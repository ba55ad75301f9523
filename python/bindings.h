#pragma once
// The module qnsim is bound in one file per topic; module.cpp calls each bind function once, in the
// order their classes are needed. The helpers here are shared between the topics.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>  // in every file, so that each sees the same conversions of std containers
#include <pybind11/pybind11.h>
#include <string>
#include <vector>

#include "core/solver/frame_solver.h"
#include "qnsim/parameter.h"

namespace qnsim::python {

namespace py = pybind11;

void bindParameters(py::module_& m);   // parameters.cpp: the registry, material models
void bindScene(py::module_& m);        // scene.cpp: Scene, load_scene, the catalog
void bindTelemetry(py::module_& m);    // telemetry.cpp: FrameRecord
void bindSimulation(py::module_& m);   // simulation.cpp: Simulation, its arrays and stepping (edits.cpp adds the edits)
void bindExperiments(py::module_& m);  // experiments.cpp: the paper's figures
void bindExport(py::module_& m);       // export.cpp: OBJ, VTK and glTF exports, a frame's fields

// A Python value as the text `--set KEY=VALUE` would get, so that a value set from Python is parsed,
// checked and rejected by the same code, with the same messages: 0.25 -> "0.25" (shortest round trip,
// so the double is exact), True -> "true", (0, -9.81, 0) -> "0,-9.81,0", "qn" -> "qn".
std::string parameterText(py::handle value);
// A checked value as the Python object a script expects (float, int, bool, str, tuple of floats).
py::object toPython(const ParameterValue& value);

// The iteration CSV's rows of one frame (docs/cli.md) as a structured array (ITERATION_DTYPE); rel_error
// is NaN where there is none.
py::array iterationTable(int frame, const std::vector<IterationRecord>& iterations, const std::vector<double>& rel_error);

// A read-only NumPy view of memory owned by `owner` (kept alive by the array), without a copy.
template <class T>
py::array readOnlyView(const T* data, std::vector<py::ssize_t> shape, std::vector<py::ssize_t> strides, py::handle owner) {
  py::array view(py::dtype::of<T>(), std::move(shape), std::move(strides), data, owner);
  view.attr("setflags")(py::arg("write") = false);
  return view;
}

}  // namespace qnsim::python
