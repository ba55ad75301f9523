// qnsim params: every parameter with its default, range and description, and every material model with
// its parameters, straight from the declarations the scene reader and --set use.
#include <cstdio>

#include "app/cli/commands.h"
#include "core/material/material.h"
#include "core/params/parameters.h"

namespace qnsim::cli {

Command addParamsCommand(CLI::App& app) {
  app.add_subcommand("params", "List every parameter (scene file keys and --set KEY=VALUE) and every material model.");
  return [] {
    std::string group;
    for (const Parameter& p : parameters()) {
      if (p.group != group) std::printf("%s%s\n", group.empty() ? "" : "\n", (group = p.group).c_str());
      std::printf("  %-28s default %-14s range %s\n      %s\n", p.key.c_str(), formatParameter(p, p.default_value).c_str(),
                  describeRange(p).c_str(), p.description.c_str());
    }
    std::printf("\nMaterial models (scene file: bodies[].materials[]; --set material.NAME.PARAMETER=VALUE)\n");
    for (const std::string& model : materialModels()) {
      std::printf("  %s\n", model.c_str());
      for (const MaterialParameter& p : makeMaterial(model)->parameters())
        std::printf("      %-12s default %-10g range [%g, %g]  %s\n", p.name.c_str(), p.default_value, p.min, p.max, p.description.c_str());
    }
    return 0;
  };
}

Command addVersionCommand(CLI::App& app) {
  app.add_subcommand("version", "Print the version and the build's sparse Cholesky backend.");
  return [] {
    std::printf("qnsim %s (sparse Cholesky: %s)\n", QNSIM_VERSION, QNSIM_SPARSE_BACKEND);
    return 0;
  };
}

}  // namespace qnsim::cli
