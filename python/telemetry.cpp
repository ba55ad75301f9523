// Telemetry: FrameRecord with the frame CSV's columns as attributes, and the iteration CSV's table as a
// structured NumPy array (core/sim/telemetry.h, docs/cli.md).
#include <cmath>

#include "python/bindings.h"
#include "qnsim/telemetry.h"

namespace qnsim::python {

// One row of the iteration table; its fields are the iteration CSV's columns, plus `fallback`.
struct IterationRow {
  int32_t frame, iter;
  double g, grad_norm, alpha;
  int32_t ls_trials;
  double time_ms, rel_error, residual;
  bool fallback;
};

namespace {

py::object columnValue(const FrameColumn& c, const FrameRecord& r) {
  const double value = c.value(r);
  return c.integer ? py::object(py::int_(static_cast<long long>(value))) : py::object(py::float_(value));
}

}  // namespace

py::array iterationTable(int frame, const std::vector<IterationRecord>& iterations, const std::vector<double>& rel_error) {
  py::array_t<IterationRow> table(static_cast<py::ssize_t>(iterations.size()));
  IterationRow* rows = table.mutable_data();
  for (size_t k = 0; k < iterations.size(); ++k) {
    const IterationRecord& it = iterations[k];
    const double rel = k < rel_error.size() ? rel_error[k] : NAN;
    rows[k] = {frame, it.iteration, it.g, it.grad_norm, it.alpha, it.ls_trials, it.time_ms, rel, it.residual, it.fallback};
  }
  return table;
}

void bindTelemetry(py::module_& m) {
  PYBIND11_NUMPY_DTYPE(IterationRow, frame, iter, g, grad_norm, alpha, ls_trials, time_ms, rel_error, residual, fallback);
  py::class_<FrameRecord> record(m, "FrameRecord",
                                 "What a frame reports: the frame CSV's columns (docs/cli.md) as attributes, and the time per phase.");
  for (const FrameColumn& c : frameColumns())
    record.def_property_readonly(c.name, [c](const FrameRecord& r) { return columnValue(c, r); }, c.meaning);
  record
      .def_property_readonly(
          "times",
          [](const FrameRecord& r) {
            return py::dict(py::arg("gradient") = r.times.gradient, py::arg("linear_solve") = r.times.linear_solve,
                            py::arg("lbfgs") = r.times.lbfgs, py::arg("line_search") = r.times.line_search,
                            py::arg("contacts") = r.times.contacts, py::arg("projection") = r.times.projection);
          },
          "Wall time (ms) of the frame's phases: gradient, linear_solve, lbfgs, line_search, contacts, projection (pbd, xpbd).")
      .def(
          "as_dict",
          [](const FrameRecord& r) {
            py::dict row;
            for (const FrameColumn& c : frameColumns()) row[c.name] = columnValue(c, r);
            return row;
          },
          "The frame CSV's row: {column: value} in the CSV's order.")
      .def("__repr__", [](const FrameRecord& r) {
        return "<qnsim.FrameRecord frame " + std::to_string(r.frame) + ", " + std::to_string(r.iterations) + " iterations, g " +
               py::repr(py::float_(r.g)).cast<std::string>() + ">";
      });
  py::list columns;
  for (const FrameColumn& c : frameColumns()) columns.append(c.name);
  m.attr("FRAME_CSV_COLUMNS") = py::tuple(columns);
  m.attr("ITERATION_DTYPE") = py::dtype::of<IterationRow>();
}

}  // namespace qnsim::python
