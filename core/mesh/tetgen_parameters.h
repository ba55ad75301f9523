#pragma once
// How a surface is filled with tets, declared once (key, range, default, description), as every tunable
// value of qnsim is (qnsim/parameter.h): a scene body's "tetgen" object, the flags of `qnsim mesh`, `qnsim
// run SURFACE` and `qnsim gui` (--tets, --edge, --max-volume, --quality, --min-dihedral, --cage) and the
// sandbox's Open all read them.
#include <functional>
#include <vector>

#include "core/mesh/tetrahedralize.h"
#include "qnsim/parameter.h"

namespace qnsim {

struct TetgenParameter : Parameter {
  std::function<ParameterValue(const TetgenOptions&)> get;
  std::function<void(TetgenOptions&, const ParameterValue&)> assign;  // unchecked: checkParameterValue first
};

// In the order a user picks them: the resolution (tets, edge, max_volume), then the quality bounds.
const std::vector<TetgenParameter>& tetgenParameters();

// The options that differ from the defaults, as key and value (what a scene file needs to write).
std::vector<std::pair<const TetgenParameter*, ParameterValue>> changedTetgenOptions(const TetgenOptions& options);

}  // namespace qnsim
