#pragma once
// `qnsim experiment NAME`: one command per figure of the paper. Each experiment loads its scene from the
// catalog, runs the methods it compares (each a list of registry edits, `--set` style, so a new method
// is one more entry), and writes a CSV (method,frame,iter,time_ms,rel_error), an SVG and a PNG in the
// style of the paper's figure, and a short summary with the paper's statement beside our numbers.
// Methods are qnsim::Method (qnsim/method.h): a label and the --set edits that make it.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "plot/axes.h"
#include "qnsim/method.h"
#include "qnsim/simulation.h"

namespace qnsim {

struct ExperimentOptions {
  std::filesystem::path out = "experiments_out";
  bool quick = false;  // a CI-sized run: fewer iterations
  std::function<void(int done, int total, const std::string& what)> progress;
  std::vector<std::string> scenes;  // table1, table1_errors: only these catalog scenes (empty: all)
  bool wants(const std::string& scene) const { return scenes.empty() || std::find(scenes.begin(), scenes.end(), scene) != scenes.end(); }
};

struct ExperimentReport {
  std::string name, title;
  std::string paper;    // what the paper shows
  std::string summary;  // what we measured, in a few lines
  std::vector<std::filesystem::path> files;
};

struct Experiment {
  std::string name, title;
  std::function<ExperimentReport(const ExperimentOptions&)> run;
  std::string alias = {};  // another name for the same run ("table2" for fig9, which makes both)
};

// Puts the simulation at positions x at rest, as if it started there (a start other than the scene's).
void startAt(Simulation& sim, const VecX& x);
// Writes the figure as base.svg and base.png (atomically) and lists base.csv, .svg and .png, the files
// of every experiment, in the report.
void writeFigure(const std::filesystem::path& base, const std::vector<plot::PlotSpec>& panels, const std::string& heading,
                 ExperimentReport& report, const plot::FigureStyle& style = {});

// Every experiment, in the paper's order. Throws nothing itself; each run throws qnsim::Error.
const std::vector<Experiment>& experiments();
// "teaser, fig7, fig8, fig9/table2, ...": every name (and alias), for help texts and errors.
std::string experimentNames();
// By name or alias; throws qnsim::Error listing the names for an unknown one.
const Experiment& findExperiment(const std::string& name);

}  // namespace qnsim
