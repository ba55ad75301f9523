#pragma once
// Every change to a running simulation is an Edit passed to Simulation::apply, between frames: the
// sandbox's panels and mouse, `qnsim run --set`, Python and a program embedding qnsim all make the same
// edits, checked the same way. apply() checks an edit completely before it changes anything (an edit
// that throws qnsim::Error leaves the simulation as it was) and then does what the edit's declared
// Effect asks (parameter.h): nothing more for a Live edit, a new method on the same A for
// NewDirectionSolver, and for NewSystemMatrix a refactorisation of A on a worker thread, swapped in at a
// frame boundary (SimulationOptions::wait_for_refactor says which one).
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "qnsim/collider.h"
#include "qnsim/material.h"
#include "qnsim/parameter.h"
#include "qnsim/state.h"

namespace qnsim {

// A setting ("solver.lbfgs_window"; `qnsim params` lists them) or a material's constant
// "material.NAME.PARAMETER" (NAME a material of the scene, PARAMETER one of its model's constants).
struct SetParameter {
  std::string key;
  // Of the key's declared type (a double for material constants), or text as after --set ("2e5", "qn",
  // "0.5,1.5"), parsed by the key's declaration.
  ParameterValue value;
};

// Replaces the material named `region` (a material entry of the scene) by another of the same kind
// (solid or spring): a switch of model, or a spline with other control points.
struct SetMaterial {
  std::string region;
  std::shared_ptr<const Material> material;
};

// Holds the vertices with attachment springs of `stiffness` (N/m) where they are now, or at `points`
// (one per vertex, world coordinates) when given; vertices already attached are skipped.
struct PinVertices {
  std::vector<int> vertices;
  double stiffness;
  std::vector<Vec3> points = {};
};

// Releases every attachment on the vertices, the scene's handles' too.
struct UnpinVertices {
  std::vector<int> vertices;
};

// Replaces the drag (Drag in state.h; empty: none). Live: g changes, A does not.
struct SetDrag {
  std::vector<Drag> drags;
};

// Removes the tets and springs with an edge crossing the wedge {apex + s u + t v : s, t >= 0} at the
// current positions (the sandbox's cut: apex the eye, u and v the rays through the ends of the dragged
// line). tearing.matrix says whether A is refactored.
struct Cut {
  Vec3 apex, u, v;
};

// Replaces the scene's collider `index` (its pose, size or motion; not its shape). Live: only the
// contacts change.
struct SetCollider {
  int index;
  Collider collider;
};

// Makes `state` the simulation's state (SimState). Its removed elements and pins change A as cuts and
// pins do.
struct LoadState {
  SimState state;
};

// Back to the scene's initial positions and velocities at time 0, every removed element back and the drag
// gone. Edits of the scene stay: settings, materials, colliders, pins and released handle vertices (what
// Simulation::savedScene writes).
struct Reset {};

using Edit = std::variant<SetParameter, SetMaterial, PinVertices, UnpinVertices, SetDrag, Cut, SetCollider, LoadState, Reset>;

// What an edit did.
struct EditResult {
  Effect effect = Effect::Live;  // NewSystemMatrix: A is being refactored
  int removed = 0;               // elements a Cut removed
};

// "KEY=VALUE" as typed after `--set`, its value kept as text for apply to parse by the key's
// declaration. Throws qnsim::Error naming the assignment when it has no '='.
SetParameter parseAssignment(std::string_view assignment);

// A short description for messages and edit lists: "solver.lbfgs_window = 8", "pin 12 vertices".
std::string describe(const Edit& edit);

}  // namespace qnsim
