// Scenes: loading a scene file or bare mesh, editing its settings and materials before a simulation is
// made of it (exactly `qnsim run --set`), and the catalog of scenes/.
#include <pybind11/stl/filesystem.h>

#include "core/scene/catalog.h"
#include "core/scene/scene_parser.h"
#include "python/bindings.h"
#include "qnsim/parameters.h"
#include "qnsim/scene.h"

namespace qnsim::python {
namespace {

ParameterValue sceneValue(const Scene& scene, const std::string& key) {
  std::string name, parameter;
  if (!splitMaterialKey(key, name, parameter)) return findParameter(key).get(scene.settings);
  for (const BodyDesc& body : scene.bodies)
    for (const MaterialDesc& m : body.materials)
      if (m.name == name) {
        try {
          return m.material->get(parameter);
        } catch (const Error& e) {
          throw error(key, ": ", e.what());
        }
      }
  throw noMaterialNamed(key, name);
}

}  // namespace

void bindScene(py::module_& m) {
  py::class_<Scene>(m, "Scene",
                    "A scene file with its meshes loaded: bodies, materials, handles, colliders and settings. Edit it with set() "
                    "before making a Simulation of it (the Simulation takes a copy).")
      .def_readonly("name", &Scene::name)
      .def_readonly("description", &Scene::description)
      .def_readonly("path", &Scene::path, "The file it was loaded from.")
      .def_readonly("frames", &Scene::frames, "Length of a headless run (`qnsim run` without --frames).")
      .def_property_readonly(
          "materials",
          [](const Scene& scene) {
            py::dict out;
            for (const BodyDesc& body : scene.bodies)
              for (const MaterialDesc& material : body.materials) out[py::str(material.name)] = std::string(material.material->model());
            return out;
          },
          "The material entries by NAME (the NAME of \"material.NAME.PARAMETER\" keys) and their models.")
      .def(
          "set", [](Scene& scene, const std::string& key, py::handle value) { applyOverride(scene, key, parameterText(value)); },
          py::arg("key"), py::arg("value"),
          "Sets a parameter (see parameters()) or a material constant \"material.NAME.PARAMETER\" exactly as\n"
          "`qnsim run --set KEY=VALUE` does; raises qnsim.Error with the same message for an unknown key or a bad value.")
      .def(
          "get", [](const Scene& scene, const std::string& key) { return toPython(sceneValue(scene, key)); }, py::arg("key"),
          "The value of a parameter or of a material constant \"material.NAME.PARAMETER\".")
      .def(
          "save", [](const Scene& scene, const std::filesystem::path& path) { writeScene(scene, path); }, py::arg("path"),
          "Writes the scene as a scene file (atomically): as its file said it, with every setting and material constant set\n"
          "since written in, mesh paths relative to the new file. Loading it gives this scene again.")
      .def("copy", [](const Scene& scene) { return Scene(scene); }, "An independent copy (to edit one scene two ways).")
      .def("__copy__", [](const Scene& scene) { return Scene(scene); })
      .def("__deepcopy__", [](const Scene& scene, py::handle) { return Scene(scene); }, py::arg("memo"))
      .def("__repr__", [](const Scene& scene) { return "<qnsim.Scene '" + scene.name + "' from " + scene.path.string() + ">"; });

  m.def(
      "load_scene",
      [](const std::filesystem::path& path, const std::vector<std::string>& overrides) { return loadScene(path, overrides); },
      py::arg("path"), py::arg("overrides") = std::vector<std::string>{}, py::call_guard<py::gil_scoped_release>(),
      "Loads a scene file (.json, docs/scene_format.md), or a bare tet or surface mesh dropped on a ground plane.\n"
      "`overrides` are \"KEY=VALUE\" assignments as given to `qnsim run --set`, applied as if written in the file\n"
      "(settings before the bodies are read, so memory_share governs them). Raises qnsim.Error naming the file and\n"
      "the JSON field or line of a problem.");
  m.def(
      "catalog",
      [] {
        py::dict out;
        for (const std::string& name : catalogSceneNames()) out[py::str(name)] = catalogScenePath(name);
        return out;
      },
      "The scenes of qnsim's scenes/ folder (share/qnsim/scenes of an install): {name: path}, e.g.\n"
      "load_scene(catalog()[\"twisting_bar\"]).");
}

}  // namespace qnsim::python
