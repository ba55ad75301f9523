#pragma once
// One parameter's declaration: key, type, default, range, description and the cost of an edit. Every
// tunable value of qnsim is declared this way, the simulation settings (parameters.h) and each
// material's constants (material.h) alike, so one parser, one checker and one widget builder serve
// the scene file, `--set`, `qnsim params`, the sandbox's panels and Simulation::apply.
// Errors: the parsing and checking functions throw qnsim::Error naming the key.
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "qnsim/types.h"

namespace qnsim {

using ParameterValue = std::variant<double, int, bool, std::string, Vec2, Vec3>;

// What an edit of a parameter costs a running simulation; Simulation::apply does exactly this much, so
// each parameter's cost is decided once, in its declaration. Ordered: each includes the ones before.
enum class Effect {
  Live,                // read where it is used, from the next frame (or line search, or contact refresh) on
  NewDirectionSolver,  // the method is rebuilt on the same A (its history, initial Hessian or kind changes)
  NewSystemMatrix,     // k is refitted (Eq. 11) and A = M/h^2 + c s^2 L refactored on a worker thread;
                       // the new A and the method built on it are swapped in at a frame boundary
};

struct Parameter {
  enum class Type { Real, Integer, Boolean, Choice, Vector2, Vector3 };
  std::string key;  // dotted, as in the scene file's nesting: "solver.lbfgs_window"
  std::string group;
  std::string description;
  Type type;
  ParameterValue default_value;
  double min = 0, max = 0;           // numeric range (each component for vectors)
  std::vector<std::string> choices;  // for Choice
  Effect effect = Effect::Live;
};

// Parses command-line text ("0.3", "10", "true", "qn", "0.5,1.5") into a checked value; errors name the
// key and say what was expected.
ParameterValue parseParameter(const Parameter& p, std::string_view text);
// Throws qnsim::Error naming the key when the value has the wrong type, is not finite or is out of range.
void checkParameterValue(const Parameter& p, const ParameterValue& value);

std::string formatParameter(const Parameter& p, const ParameterValue& value);
std::string describeRange(const Parameter& p);
// One rule for every slider: a positive range over three decades or more is dragged logarithmically.
bool isLogarithmic(const Parameter& p);
// "did you mean" for an unknown key: the known key nearest by edit distance ("" when none is known).
std::string nearestKey(std::string_view key, const std::vector<std::string_view>& known);

}  // namespace qnsim
