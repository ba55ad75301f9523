#pragma once
// The tetrahedralisation flags that `qnsim mesh` and `qnsim run SURFACE` share (tetgen's controls,
// as a scene body's "tetgen" object names them).
#include <CLI/CLI.hpp>

#include "core/mesh/tetrahedralize.h"

namespace qnsim::cli {

// Adds --tets, --edge, --max-volume, --quality and --min-dihedral to `cmd`, writing into `options`.
void addTetgenFlags(CLI::App* cmd, TetgenOptions& options);
// True when any of them was given on the command line.
bool tetgenFlagsGiven(const CLI::App* cmd);

}  // namespace qnsim::cli
