// The paper's figures (experiments/, `qnsim experiment NAME`): run by the same code, their table read
// back from the CSV the experiment writes, so that it is the CSV's table by construction.
#include <pybind11/stl/filesystem.h>

#include <optional>

#include "experiments/experiment.h"
#include "python/bindings.h"
#include "qnsim/error.h"

namespace qnsim::python {
namespace {

py::array runExperiment(const std::string& name, bool quick, const std::optional<std::filesystem::path>& out) {
  const Experiment& experiment = findExperiment(name);
  // Without `out`, the files go to a temporary folder that is removed afterwards.
  py::object temporary = out ? py::none() : py::module_::import("tempfile").attr("TemporaryDirectory")(py::arg("prefix") = "qnsim_");
  ExperimentOptions options;
  options.out = out ? *out : std::filesystem::path(temporary.attr("name").cast<std::string>());
  options.quick = quick;
  ExperimentReport report;
  {
    py::gil_scoped_release unlocked;
    report = experiment.run(options);
  }
  std::filesystem::path csv;  // the first CSV is the figure's own (fig9 also writes table2.csv)
  for (const std::filesystem::path& file : report.files)
    if (file.extension() == ".csv" && csv.empty()) csv = file;
  if (csv.empty()) throw error("experiment ", name, ": it wrote no CSV");
  py::array table = py::module_::import("numpy").attr("genfromtxt")(csv, py::arg("delimiter") = ",", py::arg("names") = true,
                                                                       py::arg("dtype") = py::none(), py::arg("encoding") = "utf-8",
                                                                       py::arg("ndmin") = 1)
                          .cast<py::array>();
  if (!temporary.is_none()) temporary.attr("cleanup")();
  return table;
}

}  // namespace

void bindExperiments(py::module_& m) {
  m.def(
      "experiments",
      [] {
        py::dict out;
        for (const Experiment& e : experiments()) out[py::str(e.name)] = e.title;
        return out;
      },
      "The paper's figures that `qnsim experiment NAME` reproduces: {name: title}, in the paper's order.");
  m.def("experiment", &runExperiment, py::arg("name"), py::arg("quick") = false, py::arg("out") = py::none(),
        "Runs a figure of the paper as `qnsim experiment NAME [--quick] --out OUT` does and returns its CSV's table as a\n"
        "structured array (method, frame, iter, time_ms, rel_error for the convergence figures). quick=True is the CI-sized\n"
        "run (a third of the iterations). With out, the CSV, SVG and PNG stay there; without, they are not kept.");
}

}  // namespace qnsim::python
