#include "app/gui/logic/compare_methods.h"

#include "experiments/convergence.h"
#include "plot/method_style.h"
#include "qnsim/parameters.h"

namespace qnsim::gui {
namespace {

constexpr const char* kLbfgs = "qn";

// L-BFGS with each non-default choice of the variant's key (after the edits it needs), unticked at first.
void addVariants(std::vector<CompareEntry>& entries, const CompareVariantKey& variant) {
  const SettingParameter& p = findParameter(variant.key);
  for (const std::string& choice : p.choices) {
    if (choice == std::get<std::string>(p.default_value)) continue;
    std::vector<std::string> edits = variant.needs;
    edits.push_back(variant.key + "=" + choice);
    entries.push_back({kLbfgs, edits, 5, false});
  }
}

}  // namespace

CompareConfig::CompareConfig() : entries(defaultCompareEntries()) {}

const std::vector<CompareVariantKey>& compareVariantKeys() {
  static const std::vector<CompareVariantKey> variants = {{"solver.initial_hessian", {}},
                                                       {"solver.line_search", {}},
                                                       {"solver.linear_solver", {}},
                                                       {"solver.cg_preconditioner", {"solver.linear_solver=cg"}}};
  return variants;
}

std::vector<CompareEntry> defaultCompareEntries() {
  std::vector<CompareEntry> entries;
  for (const std::string& method : findParameter("solver.method").choices) {
    if (method != kLbfgs) {
      entries.push_back({method, {}, -1, true});
      continue;
    }
    for (const int m : {1, 3, 5, 10}) entries.push_back({method, {}, m, m != 3});
  }
  for (const CompareVariantKey& variant : compareVariantKeys()) addVariants(entries, variant);
  return entries;
}

std::string compareMethodName(const CompareEntry& entry) { return entry.method == kLbfgs ? "Ours" : plot::methodName(entry.method); }

std::string compareVariant(const CompareEntry& entry) {
  std::string variant;
  for (const std::string& o : entry.edits) variant += ", " + o.substr(o.find('=') + 1);
  return variant;
}

std::string compareLabel(const CompareEntry& entry) {
  return (entry.method == kLbfgs ? "lbfgs_m" + std::to_string(entry.window) : entry.method) + compareVariant(entry);
}

std::vector<Method> compareMethods(const CompareConfig& config) {
  std::vector<Method> methods;
  for (const CompareEntry& entry : config.entries) {
    if (!entry.enabled) continue;
    Method m{compareLabel(entry), {"solver.method=" + entry.method}};
    if (entry.window >= 0) m.edits.push_back("solver.lbfgs_window=" + std::to_string(entry.window));
    m.edits.insert(m.edits.end(), entry.edits.begin(), entry.edits.end());
    m.edits.push_back("solver.iterations=" + std::to_string(config.iterations));
    m.edits.push_back("solver.gradient_tolerance=0");
    checkComparable(m);
    methods.push_back(std::move(m));
  }
  return methods;
}

std::vector<std::filesystem::path> exportComparison(const CompareResult& result, const std::filesystem::path& base, const std::string& scene) {
  std::vector<MethodResult> results;
  for (const MethodTrace& trace : result.traces) results.push_back({{trace.label, {}}, trace});
  if (!base.parent_path().empty()) std::filesystem::create_directories(base.parent_path());
  writeConvergenceCsv(base.string() + ".csv", result.frame, results);
  const std::string where = scene + ", frame " + std::to_string(result.frame);
  ExperimentReport report;
  writeFigure(base, {errorPlot(results, false, where), errorPlot(results, true, where)}, "Compare: " + where, report);
  return report.files;
}

}  // namespace qnsim::gui
