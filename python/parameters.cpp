// The parameter registry (core/params) and the material models' declarations, read-only: what
// `qnsim params` prints. Values are set through Scene.set and Simulation.set, which parse them as --set does.

#include "python/bindings.h"
#include "qnsim/material.h"
#include "qnsim/parameters.h"

namespace qnsim::python {
namespace {

const char* typeName(Parameter::Type type) {
  switch (type) {
    case Parameter::Type::Real: return "real";
    case Parameter::Type::Integer: return "integer";
    case Parameter::Type::Boolean: return "boolean";
    case Parameter::Type::Choice: return "choice";
    case Parameter::Type::Vector2: return "vector2";
    case Parameter::Type::Vector3: return "vector3";
  }
  return "";
}

const char* effectName(Effect effect) {
  switch (effect) {
    case Effect::Live: return "live";
    case Effect::NewDirectionSolver: return "new_direction_solver";
    case Effect::NewSystemMatrix: return "new_system_matrix";
  }
  return "";
}

bool isNumeric(const Parameter& p) { return p.type != Parameter::Type::Boolean && p.type != Parameter::Type::Choice; }

// Declarations by key, in declaration order (copies: the registry itself stays out of reach).
template <class Declarations>
py::dict byKey(const Declarations& declarations) {
  py::dict out;
  for (const Parameter& p : declarations) out[py::str(p.key)] = py::cast(p, py::return_value_policy::copy);
  return out;
}

}  // namespace

std::string parameterText(py::handle value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  // NumPy scalars and arrays as Python scalars and lists (np.bool_ is not a bool).
  if (py::hasattr(value, "tolist")) return parameterText(value.attr("tolist")());
  if (py::isinstance<py::sequence>(value)) {
    std::string text;
    for (py::handle item : value) text += (text.empty() ? "" : ",") + parameterText(item);
    return text;
  }
  return py::str(value);  // numbers: repr, the shortest text that reads back as the same double
}

py::object toPython(const ParameterValue& value) {
  return std::visit(
      [](const auto& v) -> py::object {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Vec2> || std::is_same_v<T, Vec3>) {
          py::tuple t(v.size());
          for (Eigen::Index i = 0; i < v.size(); ++i) t[i] = v[i];
          return t;
        } else {
          return py::cast(v);
        }
      },
      value);
}

void bindParameters(py::module_& m) {
  py::class_<Parameter>(m, "Parameter", "A parameter's declaration: key, type, default, range, description and the cost of an edit.")
      .def_readonly("key", &Parameter::key, "Dotted key, as in the scene file and --set (\"solver.lbfgs_window\").")
      .def_readonly("group", &Parameter::group, "Group it is listed under (`qnsim params`, the sandbox's panels).")
      .def_readonly("description", &Parameter::description)
      .def_property_readonly("type", [](const Parameter& p) { return typeName(p.type); },
                             "\"real\", \"integer\", \"boolean\", \"choice\", \"vector2\" or \"vector3\".")
      .def_property_readonly("default", [](const Parameter& p) { return toPython(p.default_value); })
      .def_property_readonly("min", [](const Parameter& p) { return isNumeric(p) ? py::object(py::float_(p.min)) : py::none(); },
                             "Smallest value (of each component for vectors); None for booleans and choices.")
      .def_property_readonly("max", [](const Parameter& p) { return isNumeric(p) ? py::object(py::float_(p.max)) : py::none(); },
                             "Largest value (of each component for vectors); None for booleans and choices.")
      .def_readonly("choices", &Parameter::choices, "The allowed values of a choice; empty otherwise.")
      .def_property_readonly("range", [](const Parameter& p) { return describeRange(p); }, "The range as `qnsim params` prints it.")
      .def_property_readonly("effect", [](const Parameter& p) { return effectName(p.effect); },
                             "What an edit costs a running simulation: \"live\", \"new_direction_solver\" or \"new_system_matrix\".")
      .def("__repr__", [](const Parameter& p) {
        return "<qnsim.Parameter " + p.key + " = " + formatParameter(p, p.default_value) + " in " + describeRange(p) + ">";
      });

  m.def("parameters", [] { return byKey(parameters()); },
        "Every simulation setting by key, in the order `qnsim params` lists them: the keys of Scene.set, Simulation.set "
        "and Simulation.get.");
  m.def(
      "material_models",
      [] {
        py::dict out;
        for (const MaterialModel& model : materialModels())
          out[py::str(model.name)] = py::dict(py::arg("solid") = model.solid, py::arg("parameters") = byKey(model.make()->parameters()));
        return out;
      },
      "Every material model by name: {\"solid\": True for tets, False for springs, \"parameters\": {name: Parameter}}. "
      "Their constants are set as \"material.NAME.PARAMETER\" for the scene's material entry NAME.");
}

}  // namespace qnsim::python
