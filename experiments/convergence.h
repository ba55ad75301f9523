#pragma once
// The convergence figures (7, 8, 13, 14, 15): one frame of a catalog scene solved by each method from
// the same state, with the relative error of Eq. 12 against one exact solution for every iterate.
#include <functional>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "qnsim/simulation.h"

namespace qnsim {

struct ConvergenceSetup {
  std::string name, title, paper;
  std::string scene = "twisting_bar";
  int frame = 3;        // solved after this many frames of the scene's own run
  int iterations = 50;  // per method (quick runs take a third)
  std::vector<Method> methods;
  bool against_time = true;  // a second panel: error against wall time
  bool step_sizes = false;   // a panel of the accepted steps alpha (Fig. 14)
};

struct MethodResult {
  Method method;
  MethodTrace trace;
};

// What the experiment says beside the paper's statement, from the results.
using Summarize = std::function<std::string(const std::vector<MethodResult>&)>;

// Solves the simulation's next frame with each method (`iterations` each, no early stop) from the same
// state, with the relative errors against one exact solution; the simulation does not advance.
std::vector<MethodResult> solveMethods(Simulation& sim, const std::vector<Method>& methods, int iterations);
// The CSV of a convergence figure: method,frame,iter,time_ms,rel_error.
void writeConvergenceCsv(const std::filesystem::path& path, int frame, const std::vector<MethodResult>& results);
// The figure's numbers as a Markdown table (NAME.md, which the documents quote): per method, in the
// paper's names, the error after `after` iterations, the last iterate's error, iteration and time, and
// the first iterate at or below `threshold` with its time (ms since the frame's solve began).
std::string convergenceMarkdown(const std::vector<MethodResult>& results, double threshold = 1e-5, int after = 10);
// Log relative error per iteration (or against wall time), one series per method; `where` ends the title.
plot::PlotSpec errorPlot(const std::vector<MethodResult>& results, bool against_time, const std::string& where);

ExperimentReport runConvergence(const ConvergenceSetup& setup, const ExperimentOptions& options, const Summarize& summarize);
// The error of `label` after its last iteration (NaN if absent).
double finalError(const std::vector<MethodResult>& results, const std::string& label);

}  // namespace qnsim
