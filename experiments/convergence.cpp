#include "experiments/convergence.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/common/files.h"
#include "core/scene/catalog.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"
#include "plot/method_style.h"

namespace qnsim {
namespace {

// Every method solves the next frame from the simulation's state. Comparable methods share one exact
// solution; one that needs another system matrix (another stiffness interval, Fig. 15) gets a
// simulation of its own, put in the same state (qnsim/method.h).
std::vector<MethodTrace> solveNextFrame(Simulation& sim, const std::vector<Method>& methods) {
  std::vector<Method> shared;
  for (const Method& m : methods)
    if (comparable(m)) shared.push_back(m);
  const std::vector<MethodTrace> shared_traces = sim.compareNextFrame(shared);
  std::vector<MethodTrace> traces;
  size_t next = 0;
  for (const Method& m : methods) {
    if (comparable(m)) {
      traces.push_back(shared_traces[next++]);
      continue;
    }
    Scene scene = sim.scene();
    scene.settings = applyMethod(sim.settings(), m);
    Simulation own(scene);
    own.apply(LoadState{sim.state()});
    traces.push_back(own.compareNextFrame({{m.label, {}}}).front());
  }
  return traces;
}

}  // namespace

void writeConvergenceCsv(const std::filesystem::path& path, int frame, const std::vector<MethodResult>& results) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "method,frame,iter,time_ms,rel_error\n";
  for (const MethodResult& r : results)
    for (size_t k = 0; k < r.trace.rel_error.size(); ++k)
      csv << r.method.label << ',' << frame << ',' << k << ',' << r.trace.result.iterations[k].time_ms << ',' << r.trace.rel_error[k] << '\n';
  writeFileBytes(path, csv.str());
}

std::string convergenceMarkdown(const std::vector<MethodResult>& results, double threshold, int after) {
  const auto at = [](const IterationRecord& it) {
    char text[64];
    std::snprintf(text, sizeof text, "%d, %.1f ms", it.iteration, it.time_ms);
    return std::string(text);
  };
  std::ostringstream md;
  md.precision(3);
  md << "| method | error after " << after << " iterations | last iterate: error (iteration, time) | first at or below "
     << threshold << " (iteration, time) |\n|---|---:|---:|---:|\n";
  for (const MethodResult& r : results) {
    const std::vector<double>& e = r.trace.rel_error;
    const auto& its = r.trace.result.iterations;
    if (e.empty()) continue;
    md << "| " << plot::methodName(r.method.label) << " | ";
    if (static_cast<int>(e.size()) > after) md << e[after];
    else md << "-";
    md << " | " << e.back() << " (" << at(its[e.size() - 1]) << ") | ";
    const auto below = std::find_if(e.begin(), e.end(), [threshold](double v) { return v <= threshold; });
    if (below == e.end()) md << "not reached";
    else md << at(its[static_cast<size_t>(below - e.begin())]);
    md << " |\n";
  }
  return md.str();
}

plot::PlotSpec errorPlot(const std::vector<MethodResult>& results, bool against_time, const std::string& where) {
  plot::PlotSpec p{(against_time ? "Relative error against wall time, " : "Relative error per iteration, ") + where, against_time ? "time (ms)" : "iteration", "relative error (Eq. 12)", {}, {}, {}, true};
  for (size_t m = 0; m < results.size(); ++m) {
    plot::Series s = plot::methodSeries(results[m].method.label, static_cast<int>(m));
    const auto& its = results[m].trace.result.iterations;
    for (size_t k = 0; k < results[m].trace.rel_error.size(); ++k) {
      s.x.push_back(against_time ? its[k].time_ms : its[k].iteration);
      s.y.push_back(results[m].trace.rel_error[k]);
    }
    p.series.push_back(std::move(s));
  }
  // Time on a log axis: Newton's seconds would otherwise squeeze every quasi-Newton curve into its
  // first pixels. The start (time 0) sits on the axis' left end.
  p.x = plot::fitAxis(p.series, false, against_time);
  p.y = plot::fitAxis(p.series, true, true);
  return p;
}

namespace {

plot::PlotSpec stepPlot(const std::vector<MethodResult>& results) {
  plot::PlotSpec p{"Accepted step alpha per iteration", "iteration", "alpha", {}, {}, {}, true};
  for (size_t m = 0; m < results.size(); ++m) {
    plot::Series s = plot::methodSeries(results[m].method.label, static_cast<int>(m));
    s.markers = true;
    for (const IterationRecord& it : results[m].trace.result.iterations)
      if (it.iteration > 0) s.x.push_back(it.iteration), s.y.push_back(it.alpha);
    p.series.push_back(std::move(s));
  }
  p.x = plot::fitAxis(p.series, false, false);
  p.y = plot::fitAxis(p.series, true, false);
  plot::include(p.y, 0.0);
  return p;
}

}  // namespace

std::vector<MethodResult> solveMethods(Simulation& sim, const std::vector<Method>& methods, int iterations) {
  std::vector<Method> every_iteration;
  for (Method m : methods) {
    m.edits.push_back("solver.iterations=" + std::to_string(iterations));
    m.edits.push_back("solver.gradient_tolerance=0");
    every_iteration.push_back(std::move(m));
  }
  const std::vector<MethodTrace> traces = solveNextFrame(sim, every_iteration);
  std::vector<MethodResult> results;
  for (size_t m = 0; m < traces.size(); ++m) results.push_back({methods[m], traces[m]});
  return results;
}

double finalError(const std::vector<MethodResult>& results, const std::string& label) {
  for (const MethodResult& r : results)
    if (r.method.label == label && !r.trace.rel_error.empty()) return r.trace.rel_error.back();
  return NAN;
}

ExperimentReport runConvergence(const ConvergenceSetup& setup, const ExperimentOptions& options, const Summarize& summarize) {
  Simulation sim(loadScene(catalogScenePath(setup.scene)));
  for (int f = 0; f < setup.frame; ++f) sim.step();
  const int iterations = options.quick ? std::max(5, setup.iterations / 3) : setup.iterations;
  if (options.progress) options.progress(0, 1, setup.name + ": solving frame " + std::to_string(setup.frame + 1));
  const std::vector<MethodResult> results = solveMethods(sim, setup.methods, iterations);

  std::filesystem::create_directories(options.out);
  const std::filesystem::path base = options.out / setup.name;
  ExperimentReport report{setup.name, setup.title, setup.paper, summarize(results), {}};
  writeConvergenceCsv(base.string() + ".csv", setup.frame + 1, results);
  const std::string table = convergenceMarkdown(results);
  writeFileBytes(base.string() + ".md", table);
  report.summary += "\n" + table;
  const std::string where = setup.scene + ", frame " + std::to_string(setup.frame + 1);
  std::vector<plot::PlotSpec> panels = {errorPlot(results, false, where)};
  if (setup.against_time) panels.push_back(errorPlot(results, true, where));
  if (setup.step_sizes) panels.push_back(stepPlot(results));
  const std::string& heading = setup.title;
  writeFigure(base, panels, heading, report);
  report.files.push_back(base.string() + ".md");
  if (options.progress) options.progress(1, 1, setup.name + ": done");
  return report;
}

}  // namespace qnsim
