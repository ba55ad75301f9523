// qnsim experiment NAME|all [--out DIR] [--quick] [--scenes A,B]: the paper's figures, one command each
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
  std::vector<std::string> scenes;
};

void print(const ExperimentReport& r) {
  std::printf("## %s: %s\npaper: %s\nours:  %s\nfiles:", r.name.c_str(), r.title.c_str(), r.paper.c_str(), r.summary.c_str());
  for (const auto& f : r.files) std::printf(" %s", f.string().c_str());
  std::printf("\n\n");
}

int count(const std::string& text, const std::string& word) {
  int n = 0;
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + word.size())) ++n;
  return n;
}

// One line per experiment at the end of `all`: how many of the paper's statements held.
void printOverview(const std::vector<ExperimentReport>& reports, const std::filesystem::path& out) {
  std::printf("## Overview (files in %s)\n", out.string().c_str());
  for (const ExperimentReport& r : reports) {
    const int failed = count(r.summary, "does not hold"), held = count(r.summary, "holds");
    char checks[64] = "report only";
    if (held + failed > 0) std::snprintf(checks, sizeof checks, "%d of %d checks hold", held, held + failed);
    std::printf("%-7s %-20s %s\n", r.name.c_str(), checks, r.title.c_str());
  }
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
  cmd->add_option("--scenes", options->scenes, "table1, table1_errors: only these catalog scenes, e.g. bunny_torus,squirrel_head")
      ->delimiter(',');
  return [options] {
    std::vector<const Experiment*> chosen;
    if (options->name == "all")
      for (const Experiment& e : experiments()) chosen.push_back(&e);
    else
      chosen.push_back(&findExperiment(options->name));
    // The bar counts experiments in thousandths, so that a long one (table1) moves it as it goes.
    ProgressBar bar(1000 * static_cast<int>(chosen.size()), true);
    std::vector<ExperimentReport> reports;
    for (size_t i = 0; i < chosen.size(); ++i) {
      const int base = 1000 * static_cast<int>(i);
      ExperimentOptions run{options->out, options->quick, [&](int done, int total, const std::string& what) {
                              bar.update(base + (total > 0 ? 1000 * done / total : 0), what);
                            },
                            options->scenes};
      bar.update(base, chosen[i]->name + ": " + chosen[i]->title);
      reports.push_back(chosen[i]->run(run));
      bar.finish();
      print(reports.back());
    }
    if (reports.size() > 1) printOverview(reports, options->out);
    return 0;
  };
}

}  // namespace qnsim::cli
