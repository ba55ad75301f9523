// Telemetry: FrameRecord with the frame CSV's columns as attributes, and the iteration CSV's table as a
// structured NumPy array (core/sim/telemetry.h, docs/cli.md).
#include <cmath>
#include <sstream>

#include "core/sim/telemetry.h"
#include "python/bindings.h"

namespace qnsim::python {

// One row of the iteration table; its fields are the iteration CSV's columns, plus `fallback`.
struct IterationRow {
  int32_t frame, iter;
  double g, grad_norm, alpha;
  int32_t ls_trials;
  double time_ms, rel_error;
  bool fallback;
};

namespace {

// The frame CSV's columns, in its order, each with its meaning (docs/cli.md) and its value.
struct FrameField {
  const char* name;
  const char* doc;
  py::object (*value)(const FrameRecord&);
};

const FrameField kFrameFields[] = {
    {"frame", "Frame number (1 = the first step).", [](const FrameRecord& r) -> py::object { return py::int_(r.frame); }},
    {"time", "Simulated time (s) at the frame's end.", [](const FrameRecord& r) -> py::object { return py::float_(r.time); }},
    {"iterations", "Solver iterations taken.", [](const FrameRecord& r) -> py::object { return py::int_(r.iterations); }},
    {"ls_trials", "Objective evaluations in the line searches.", [](const FrameRecord& r) -> py::object { return py::int_(r.ls_trials); }},
    {"frame_ms", "Wall time of the frame's solve (without the reference solve).",
     [](const FrameRecord& r) -> py::object { return py::float_(r.frame_ms); }},
    {"g", "Objective (Eq. 3) at the solution.", [](const FrameRecord& r) -> py::object { return py::float_(r.g); }},
    {"elastic_energy", "Elastic energy (tets and springs).", [](const FrameRecord& r) -> py::object { return py::float_(r.elastic_energy); }},
    {"kinetic_energy", "Kinetic energy 1/2 v^T M v.", [](const FrameRecord& r) -> py::object { return py::float_(r.kinetic_energy); }},
    {"min_det_f", "Smallest det F over the tets.", [](const FrameRecord& r) -> py::object { return py::float_(r.min_det_f); }},
    {"inverted", "Tets with det F <= 0.", [](const FrameRecord& r) -> py::object { return py::int_(r.inverted); }},
    {"active_contacts", "Contact terms in the active set.", [](const FrameRecord& r) -> py::object { return py::int_(r.active_contacts); }},
    {"max_penetration", "Deepest vertex below a collider surface (m).",
     [](const FrameRecord& r) -> py::object { return py::float_(r.max_penetration); }},
    {"bbox_diagonal", "Bounding-box diagonal of the deformed state.", [](const FrameRecord& r) -> py::object { return py::float_(r.bbox_diagonal); }},
    {"com_x", "Centre of mass, x.", [](const FrameRecord& r) -> py::object { return py::float_(r.com.x()); }},
    {"com_y", "Centre of mass, y.", [](const FrameRecord& r) -> py::object { return py::float_(r.com.y()); }},
    {"com_z", "Centre of mass, z.", [](const FrameRecord& r) -> py::object { return py::float_(r.com.z()); }},
    {"factorizations", "Sparse Cholesky factorizations since the start.",
     [](const FrameRecord& r) -> py::object { return py::int_(r.factorizations); }},
    {"reference_ms", "Wall time of the exact reference solve (reference=True), 0 without it.",
     [](const FrameRecord& r) -> py::object { return py::float_(r.reference_ms); }},
};

std::vector<std::string> frameCsvColumns() {
  std::ostringstream header;
  writeFrameCsvHeader(header);
  std::vector<std::string> columns;
  std::istringstream in(header.str().substr(0, header.str().find('\n')));
  for (std::string column; std::getline(in, column, ',');) columns.push_back(column);
  return columns;
}

}  // namespace

py::array iterationTable(int frame, const std::vector<IterationRecord>& iterations, const std::vector<double>& rel_error) {
  py::array_t<IterationRow> table(static_cast<py::ssize_t>(iterations.size()));
  IterationRow* rows = table.mutable_data();
  for (size_t k = 0; k < iterations.size(); ++k) {
    const IterationRecord& it = iterations[k];
    rows[k] = {frame, it.iteration, it.g, it.grad_norm, it.alpha, it.ls_trials, it.time_ms, k < rel_error.size() ? rel_error[k] : NAN,
               it.fallback};
  }
  return table;
}

void bindTelemetry(py::module_& m) {
  PYBIND11_NUMPY_DTYPE(IterationRow, frame, iter, g, grad_norm, alpha, ls_trials, time_ms, rel_error, fallback);
  py::class_<FrameRecord> record(m, "FrameRecord",
                                 "What a frame reports: the frame CSV's columns (docs/cli.md) as attributes, and the time per phase.");
  for (const FrameField& field : kFrameFields) record.def_property_readonly(field.name, field.value, field.doc);
  record
      .def_property_readonly(
          "times",
          [](const FrameRecord& r) {
            return py::dict(py::arg("gradient") = r.times.gradient, py::arg("linear_solve") = r.times.linear_solve,
                            py::arg("lbfgs") = r.times.lbfgs, py::arg("line_search") = r.times.line_search,
                            py::arg("contacts") = r.times.contacts);
          },
          "Wall time (ms) of the frame's phases: gradient, linear_solve, lbfgs, line_search, contacts.")
      .def(
          "as_dict",
          [](const FrameRecord& r) {
            py::dict row;
            for (const FrameField& field : kFrameFields) row[field.name] = field.value(r);
            return row;
          },
          "The frame CSV's row: {column: value} in the CSV's order.")
      .def("__repr__", [](const FrameRecord& r) {
        return "<qnsim.FrameRecord frame " + std::to_string(r.frame) + ", " + std::to_string(r.iterations) + " iterations, g " +
               py::repr(py::float_(r.g)).cast<std::string>() + ">";
      });
  m.attr("FRAME_CSV_COLUMNS") = py::tuple(py::cast(frameCsvColumns()));
  m.attr("ITERATION_DTYPE") = py::dtype::of<IterationRow>();
}

}  // namespace qnsim::python
