#pragma once
// The tetrahedralisation flags that `qnsim mesh`, `qnsim run SURFACE` and `qnsim gui` share: the declared
// controls (core/mesh/tetgen_parameters.h), a flag each, named as a scene body's "tetgen" object names
// them with '-' for '_' (--tets, --edge, --max-volume, --quality, --min-dihedral, --cage).
#include <CLI/CLI.hpp>
#include <vector>

#include "core/mesh/tetrahedralize.h"

namespace qnsim::cli {

using TetgenFlags = std::vector<CLI::Option*>;

// Adds one flag per declared control to `cmd`, writing into `options` (which must outlive the parse).
TetgenFlags addTetgenFlags(CLI::App* cmd, TetgenOptions& options);
// True when any of them was given on the command line.
bool given(const TetgenFlags& flags);

}  // namespace qnsim::cli
