#pragma once
// The Compare tab's rows, derived from the parameter registry: every choice of solver.method (a method
// added to the registry shows up by itself), L-BFGS once per window, and L-BFGS with each other initial
// Hessian and line search. Each ticked row becomes a qnsim::Method (qnsim/method.h), as the experiments
// and Python name theirs.
#include <filesystem>
#include <string>
#include <vector>

#include "app/gui/logic/sim_runner.h"

namespace qnsim::gui {

struct CompareEntry {
  std::string method;              // a choice of solver.method
  std::vector<std::string> edits;  // further KEY=VALUE edits ("solver.initial_hessian=rest_hessian")
  int window = -1;                 // solver.lbfgs_window for L-BFGS entries; -1 keeps the current one
  bool enabled = true;
};

struct CompareConfig {
  std::vector<CompareEntry> entries;
  int iterations = 30;
  bool against_time = false;
  CompareConfig();  // the entries of defaultCompareEntries()
};

std::vector<CompareEntry> defaultCompareEntries();
// A choice parameter whose every non-default choice is offered as an L-BFGS variant, after the edits it
// needs to matter (a CG preconditioner needs linear_solver=cg).
struct CompareVariantKey {
  std::string key;
  std::vector<std::string> needs;
};
const std::vector<CompareVariantKey>& compareVariantKeys();
// "lbfgs_m5", "pd", "lbfgs_m5, rest_hessian", ...: the method's label in the CSV files and the figures'
// style table (plot/method_style.h), its window and its variant.
std::string compareLabel(const CompareEntry& entry);
std::string compareMethodName(const CompareEntry& entry);  // "Ours", "PD": the text beside its tick box
std::string compareVariant(const CompareEntry& entry);     // ", rest_hessian" ("" without overrides)
// Each enabled entry as a Method: its edits and the tab's iteration count (every iteration is run: no
// early stop). Throws qnsim::Error naming the key of a rejected edit (checkComparable).
std::vector<Method> compareMethods(const CompareConfig& config);

// Writes a comparison as `qnsim experiment` writes a convergence figure: BASE.csv (method,frame,iter,
// time_ms,rel_error), BASE.svg and BASE.png (error per iteration and against time), each atomically.
// Returns the files; throws qnsim::Error naming a path that cannot be written.
std::vector<std::filesystem::path> exportComparison(const CompareResult& result, const std::filesystem::path& base, const std::string& scene);

}  // namespace qnsim::gui
