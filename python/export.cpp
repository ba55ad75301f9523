// Exports for other tools (qnsim/export.h): OBJ, VTK (.vtu + .pvd) and glTF (.glb) files of a simulation's
// frames, and one frame's fields as NumPy arrays, the same the .vtu files hold.
#include <pybind11/stl/filesystem.h>

#include "python/simulation_handle.h"
#include "qnsim/error.h"
#include "qnsim/export.h"

namespace qnsim::python {
namespace {

template <class T>
py::array_t<T> copyArray(const T* data, std::vector<py::ssize_t> shape) {
  py::array_t<T> out(shape);
  std::copy(data, data + out.size(), out.mutable_data());
  return out;
}

py::dict fieldsDict(const FrameFields& f) {
  const py::ssize_t n = f.points.rows(), cells = static_cast<py::ssize_t>(f.cell_type.size());
  py::dict d;
  d["points"] = copyArray(f.points.data(), {n, 3});
  d["cell_types"] = copyArray(f.cell_type.data(), {cells});
  d["connectivity"] = copyArray(f.connectivity.data(), {static_cast<py::ssize_t>(f.connectivity.size())});
  d["offsets"] = copyArray(f.offsets.data(), {cells});
  d["element"] = copyArray(f.element.data(), {cells});
  d["velocity"] = copyArray(f.velocity.data(), {n, 3});
  d["displacement"] = copyArray(f.displacement.data(), {n, 3});
  d["contact_distance"] = f.contact_distance.empty() ? py::object(py::none()) : py::object(copyArray(f.contact_distance.data(), {n}));
  d["region"] = copyArray(f.region.data(), {cells});
  d["body"] = copyArray(f.body.data(), {cells});
  d["det_F"] = copyArray(f.det_f.data(), {cells});
  d["strain_energy_density"] = copyArray(f.energy_density.data(), {cells});
  py::array_t<double> stress({cells, py::ssize_t(3), py::ssize_t(3)});
  double* out = stress.mutable_data();
  for (py::ssize_t c = 0; c < cells; ++c)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) *out++ = f.stress[c](i, j);
  d["stress"] = stress;
  d["stress_norm"] = copyArray(f.stress_norm.data(), {cells});
  d["strain"] = copyArray(f.strain.data(), {cells});
  return d;
}

ExportFormat formatOf(const std::string& name) { return exportFormat(name); }

}  // namespace

void bindExport(py::module_& m) {
  m.def(
      "frame_fields", [](SimulationHandle& h) { return fieldsDict(frameFields(h.sim())); }, py::arg("sim"),
      "The current frame as a .vtu holds it, as NumPy arrays (copies): points (n, 3); the cells (tets, then cloth\n"
      "triangles and strand segments still present) as VTK's cell_types (10, 5, 3), connectivity and offsets, and\n"
      "element (the cell's tet, triangle or spring index); per point velocity, displacement and contact_distance (None\n"
      "without colliders); per cell region, body, det_F, strain_energy_density (Pa), stress (first Piola-Kirchhoff,\n"
      "(c, 3, 3), Pa), stress_norm and strain (NaN where a field is not defined: tet fields on triangles and segments).");
  m.def(
      "write_vtu", [](const std::filesystem::path& path, SimulationHandle& h) { writeVtu(path, h.sim()); }, py::arg("path"), py::arg("sim"),
      "Writes the current frame as a VTK unstructured grid (.vtu) with the fields of frame_fields(); atomically.");
  m.def(
      "write_obj", [](const std::filesystem::path& path, SimulationHandle& h) { writeObj(path, h.sim()); }, py::arg("path"), py::arg("sim"),
      "Writes the current frame's drawn surfaces (render meshes where bodies have them) as an OBJ with normals and UVs.");

  py::class_<Exporter>(m, "Exporter",
                       "A run's frames into a folder, as `qnsim run --export FOLDER --format F --every N`: obj (frame_00000.obj, ...),\n"
                       "vtu (frame_00000.vtu, ... and frames.pvd) or glb (animation.glb, written by finish()). Use it as a context\n"
                       "manager, or call finish() at the end.")
      .def(py::init([](const std::filesystem::path& folder, const std::string& format, int every) {
             return std::make_unique<Exporter>(folder, formatOf(format), every);
           }),
           py::arg("folder"), py::arg("format") = "obj", py::arg("every") = 1)
      .def(
          "add", [](Exporter& e, SimulationHandle& h) { return e.add(h.sim()); }, py::arg("sim"),
          "Exports the simulation's current frame if its number is a multiple of `every` (frame 0 included); returns whether it did.")
      .def(
          "finish", [](Exporter& e) { return e.finish(); }, "Writes what waits for the end (the .glb); returns every file written.")
      .def_property_readonly("exported_frames", &Exporter::exportedFrames)
      .def_property_readonly("format", [](const Exporter& e) { return std::string(exportFormatName(e.format())); })
      .def_property_readonly("folder", &Exporter::folder)
      .def_property_readonly("warning", &Exporter::warning, "What the export could not keep (a torn surface in a .glb), or \"\".")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](Exporter& e, py::handle type, py::handle, py::handle) {
        if (type.is_none()) e.finish();  // after an exception, only the files already written stay
        return false;
      });
}

}  // namespace qnsim::python
