#pragma once
// A colouring of the model's elements for parallel Gauss-Seidel: elements of one colour share no vertex,
// so they can be updated at the same time in any order with the same result.
#include <vector>

#include "core/model/model.h"

namespace qnsim {

// Element ids: tet e is e, spring s is tets.size() + s. Greedy in id order (each element takes the
// smallest colour none of its vertices' earlier elements has), so the colouring depends on the mesh alone.
std::vector<std::vector<int>> colorElements(const Model& model);

}  // namespace qnsim
