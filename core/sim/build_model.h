#pragma once
// Turns a Scene into the discrete Model: regions from the bodies' materials, elements, masses, and the
// attachment springs of the handles.
#include <vector>

#include "core/model/model.h"
#include "core/sim/handles.h"
#include "qnsim/scene.h"

namespace qnsim {

struct BuiltModel {
  Model model;
  std::vector<HandleState> handles;
  VecX initial;   // initial positions, 3n: the rest positions unless a body is perturbed
  VecX velocity;  // initial, 3n
  ElementSet removed;  // the bodies' removed elements, as model indices
};

// Throws qnsim::Error naming the body for problems only visible now: a region tag without a material,
// a handle that selects no vertex or an index out of range, a vertex no element uses.
BuiltModel buildModel(const Scene& scene);

}  // namespace qnsim
