#pragma once
// The tetrahedralisation flags that `qnsim mesh` and `qnsim run SURFACE` share (tetgen's controls,
// as a scene body's "tetgen" object names them).
#include <CLI/CLI.hpp>
#include <vector>

#include "core/mesh/tetrahedralize.h"

namespace qnsim::cli {

using TetgenFlags = std::vector<CLI::Option*>;

// Adds --tets, --edge, --max-volume, --quality and --min-dihedral to `cmd`, writing into `options`.
TetgenFlags addTetgenFlags(CLI::App* cmd, TetgenOptions& options);
// True when any of them was given on the command line.
bool given(const TetgenFlags& flags);

}  // namespace qnsim::cli
