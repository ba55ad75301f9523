#include "app/cli/tetgen_flags.h"

namespace qnsim::cli {

TetgenFlags addTetgenFlags(CLI::App* cmd, TetgenOptions& options) {
  return {cmd->add_option("--tets", options.target_tets, "About this many tets (sets tetgen's volume bound from the enclosed volume)")
              ->check(CLI::PositiveNumber),
          cmd->add_option("--edge", options.edge_length, "Tets of about this edge length (m)")->check(CLI::PositiveNumber),
          cmd->add_option("--max-volume", options.max_volume, "No tet larger than this (m^3; tetgen -a)")->check(CLI::PositiveNumber),
          cmd->add_option("--quality", options.max_radius_edge_ratio, "Largest radius-edge ratio (tetgen -q; default 1.414)")
              ->check(CLI::Range(1.0, 10.0)),
          cmd->add_option("--min-dihedral", options.min_dihedral_degrees,
                          "Smallest dihedral angle in degrees (tetgen -q ratio/angle; 0-30)")
              ->check(CLI::Range(0.0, 30.0))};
}

bool given(const TetgenFlags& flags) {
  for (const CLI::Option* flag : flags)
    if (flag->count() > 0) return true;
  return false;
}

}  // namespace qnsim::cli
