// qnsim params: every parameter with its default, range and description, and every material model with
// its parameters, straight from the declarations the scene reader and --set use.
#include <cstdio>

#include "app/cli/commands.h"
#include "qnsim/material.h"
#include "qnsim/parameters.h"
#include "qnsim/version.h"

namespace qnsim::cli {
namespace {
const char* effectName(Effect effect) {
  switch (effect) {
    case Effect::Live: return "applies live";
    case Effect::NewDirectionSolver: return "new direction solver";
    case Effect::NewSystemMatrix: return "refactors A";
  }
  return "";
}

void print(const Parameter& p, int width) {
  std::printf("  %-*s default %-14s range %-18s (%s)\n      %s\n", width, p.key.c_str(), formatParameter(p, p.default_value).c_str(),
              describeRange(p).c_str(), effectName(p.effect), p.description.c_str());
}
}  // namespace

Command addParamsCommand(CLI::App& app) {
  app.add_subcommand("params", "List every parameter (scene file keys and --set KEY=VALUE) and every material model.");
  return [] {
    std::string group;
    for (const SettingParameter& p : parameters()) {
      if (p.group != group) std::printf("%s%s\n", group.empty() ? "" : "\n", (group = p.group).c_str());
      print(p, 28);
    }
    std::printf("\nMaterial models (scene file: bodies[].materials[]; --set material.NAME.PARAMETER=VALUE)\n");
    for (const MaterialModel& model : materialModels()) {
      std::printf("  %s (%s)\n", model.name.c_str(), model.solid ? "tets" : "springs");
      for (const MaterialParameter& p : model.make()->parameters()) print(p, 12);
    }
    return 0;
  };
}

Command addVersionCommand(CLI::App& app) {
  app.add_subcommand("version", "Print the version, the build's sparse Cholesky backend and the vector kernels this CPU runs.");
  return [] {
    std::printf("qnsim %s (sparse Cholesky: %s; vector kernels: %s)\n", qnsim::version(), qnsim::sparseBackend(),
                qnsim::vectorKernels());
    return 0;
  };
}

}  // namespace qnsim::cli
