// qnsim experiment NAME|all [--out DIR] [--quick]: the paper's figures, one command each
// (experiments/). Prints each figure's statement in the paper beside what was measured.
#include <cstdio>

#include "app/cli/commands.h"
#include "app/cli/progress.h"
#include "experiments/experiment.h"

namespace qnsim::cli {
namespace {

struct ExperimentCommandOptions {
  std::string name;
  std::string out = "experiments_out";
  bool quick = false;
};

void print(const ExperimentReport& r) {
  std::printf("## %s: %s\npaper: %s\nours:  %s\nfiles:", r.name.c_str(), r.title.c_str(), r.paper.c_str(), r.summary.c_str());
  for (const auto& f : r.files) std::printf(" %s", f.string().c_str());
  std::printf("\n\n");
}

}  // namespace

Command addExperimentCommand(CLI::App& app) {
  auto options = std::make_shared<ExperimentCommandOptions>();
  const std::string names = experimentNames();
  CLI::App* cmd = app.add_subcommand("experiment", "Reproduce a figure of the paper: CSV, SVG and PNG, and a summary beside the paper's "
                                                   "statement (" + names + ", or all)");
  cmd->add_option("name", options->name, "Experiment name, or all")->required();
  cmd->add_option("--out", options->out, "Output folder (created if missing)");
  cmd->add_flag("--quick", options->quick, "A CI-sized run: a third of the iterations");
  return [options] {
    std::vector<const Experiment*> chosen;
    if (options->name == "all")
      for (const Experiment& e : experiments()) chosen.push_back(&e);
    else
      chosen.push_back(&findExperiment(options->name));
    ProgressBar bar(static_cast<int>(chosen.size()), true);
    ExperimentOptions run{options->out, options->quick, {}};
    for (size_t i = 0; i < chosen.size(); ++i) {
      bar.update(static_cast<int>(i), chosen[i]->name + ": " + chosen[i]->title);
      print(chosen[i]->run(run));
    }
    bar.finish();
    return 0;
  };
}

}  // namespace qnsim::cli
