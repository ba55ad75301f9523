// `qnsim experiment solvers` (docs/solvers.md): every method on every catalog scene it applies to, at
// equal accuracy. Each scene runs its own trajectory with ours; at sampled frames every method solves
// the next frame from the same state (Simulation::compareNextFrame, one exact solution, Eq. 12), for up
// to a time budget, on one thread timed by the process's CPU time. Per method and scene: the median over
// the samples of the time, iterations and evaluations of g to reach relative errors 1e-2, 1e-4 and 1e-6,
// and the error reached within 33 ms and 10 ms; one Markdown table per tolerance and budget with each
// scene's winner in bold, the convergence CSV (label scene/method) and the paper-style plots of three
// scenes.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "core/common/files.h"
#include "core/common/timer.h"
#include "core/scene/catalog.h"
#include "core/sim/simulation_impl.h"
#include "experiments/figures.h"
#include "experiments/statistics.h"
#include "plot/method_style.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {

// A method with the most iterations it may take on one frame (the time budget may lower it). VBD runs
// plain and as its paper runs it (accelerated, from its adaptive initial guess); ours runs from that guess
// too, so that the tables tell the guess's gain from the solver's. *_guess start there, measured from g(y).
struct Contender {
  Method method;
  int cap;
};

const std::vector<Contender>& contenders() {
  static const std::vector<Contender> list = {
      {{"ours", {"solver.method=qn", "solver.lbfgs_window=5"}}, 1000},
      {{"ours_guess", {"solver.method=qn", "solver.lbfgs_window=5", "solver.initial_guess=adaptive"}}, 1000},
      {{"pd", {"solver.method=pd"}}, 3000},
      {{"chebyshev", {"solver.method=chebyshev"}}, 3000},
      {{"anderson", {"solver.method=anderson", "solver.anderson_window=5"}}, 3000},
      {{"newton", {"solver.method=newton"}}, 50},
      {{"newton_abs", {"solver.method=newton_abs"}}, 50},
      {{"vbd", {"solver.method=vbd"}}, 3000},
      {{"vbd_accel_guess", {"solver.method=vbd", "solver.vbd_rho=0.9", "solver.initial_guess=adaptive"}}, 3000},
      {{"jacobi", {"solver.method=jacobi"}}, 3000},
      {{"admm", {"solver.method=admm"}}, 3000},
  };
  return list;
}

constexpr double kTolerances[] = {1e-2, 1e-4, 1e-6};
constexpr double kBudgets[] = {33.0, 10.0};

// Full evaluations of g and its gradient up to and including iterate k: the initial one and every
// line-search trial (or safeguard and check) recorded (vbd makes none: its per-vertex work is its time).
double evaluationsUpTo(const FrameSolveResult& r, size_t k, bool evaluates) {
  double count = evaluates ? 1.0 : 0.0;
  for (size_t i = 1; i <= k; ++i) count += r.iterations[i].ls_trials;
  return count;
}

struct Reach {
  double ms = NAN, iterations = NAN, evaluations = NAN;  // NaN: not reached within the budget
};

Reach reach(const MethodTrace& t, double tolerance, bool evaluates) {
  for (size_t k = 0; k < t.rel_error.size(); ++k)
    if (t.rel_error[k] <= tolerance)
      return {t.result.iterations[k].time_ms, static_cast<double>(k), evaluationsUpTo(t.result, k, evaluates)};
  return {};
}

// The error of the last iterate ended within `budget` ms (1 when even the first took longer).
double errorWithin(const MethodTrace& t, double budget) {
  double error = t.rel_error.empty() ? 1.0 : t.rel_error.front();
  for (size_t k = 0; k < t.rel_error.size(); ++k)
    if (t.result.iterations[k].time_ms <= budget) error = t.rel_error[k];
  return error;
}

// One method on one scene: its traces at the sampled frames.
struct Measured {
  std::string scene, method;
  std::vector<MethodTrace> traces;
  std::string skipped;  // why it does not apply (empty: it does)
};

bool evaluatesG(const std::string& method) { return method.rfind("vbd", 0) != 0; }

// The median over the samples of what reaching `tolerance` took; NaN unless every sample reached it.
Reach medianReach(const Measured& m, double tolerance) {
  std::vector<double> ms, its, evals;
  for (const MethodTrace& t : m.traces) {
    const Reach r = reach(t, tolerance, evaluatesG(m.method));
    if (std::isnan(r.ms)) return {};
    ms.push_back(r.ms), its.push_back(r.iterations), evals.push_back(r.evaluations);
  }
  return {median(ms), median(its), median(evals)};
}

double medianError(const Measured& m, double budget) {
  std::vector<double> e;
  for (const MethodTrace& t : m.traces) e.push_back(errorWithin(t, budget));
  return median(e);
}

// The methods that can run on the scene: each one's frame method built on the scene's objective; one
// that refuses the scene (ADMM with fibres) says why.
std::vector<std::string> whyNot(Simulation& sim) {
  std::vector<std::string> reasons;
  for (const Contender& c : contenders()) {
    try {
      makeFrameMethod(applyMethod(sim.settings(), c.method).solver, *internals(sim).objective, *internals(sim).system);
      reasons.emplace_back();
    } catch (const Error& e) {
      reasons.emplace_back(e.what());
    }
  }
  return reasons;
}

// Every applicable method solves the next frame, each with `iterations[i]` iterations and no early stop but
// the time budget (0: none).
std::vector<MethodTrace> solveAll(Simulation& sim, const std::vector<size_t>& which, const std::vector<int>& iterations,
                                  double budget_ms = 0) {
  std::vector<Method> methods;
  for (size_t i = 0; i < which.size(); ++i) {
    Method m = contenders()[which[i]].method;
    m.edits.push_back("solver.iterations=" + std::to_string(iterations[i]));
    m.edits.push_back("solver.gradient_tolerance=0");
    m.edits.push_back("solver.time_limit_ms=" + std::to_string(budget_ms));
    methods.push_back(m);
  }
  return sim.compareNextFrame(methods);
}

struct SceneRun {
  std::string title;  // the scene's own name ("Twisting bar")
  std::vector<Measured> measured;
  int vertices = 0, tets = 0, springs = 0;
};

SceneRun runScene(const std::string& name, int samples, double budget_ms) {
  Scene scene = loadScene(catalogScenePath(name));
  scene.settings.threads = 1;  // so that the process's CPU time is the method's time
  Simulation sim(scene);
  SceneRun run;
  run.title = scene.name;
  run.vertices = sim.model().vertexCount(), run.tets = sim.model().tets.size(), run.springs = sim.model().springs.size();
  const std::vector<std::string> reasons = whyNot(sim);
  std::vector<size_t> which;
  for (size_t i = 0; i < contenders().size(); ++i) {
    run.measured.push_back({name, contenders()[i].method.label, {}, reasons[i]});
    if (reasons[i].empty()) which.push_back(i);
  }
  // Sampled frames spread over the scene's run (the first sample after a few frames).
  std::vector<int> at;
  for (int s = 1; s <= samples; ++s) at.push_back(std::max(2, scene.frames * s / (samples + 1)));
  for (int frame = 0; frame <= at.back(); ++frame) {
    if (std::find(at.begin(), at.end(), frame) != at.end()) {
      // Calibrated on each sampled frame: 3 iterations each, then as many as the budget allows, and the
      // budget also as a time limit inside the solve: an iteration's cost changes by orders of magnitude
      // where contacts come and go (a self-colliding fold: 2 ms before the fold, 300 ms in it), also
      // within one solve.
      std::vector<int> iterations;
      const std::vector<MethodTrace> probe = solveAll(sim, which, std::vector<int>(which.size(), 3));
      for (size_t i = 0; i < which.size(); ++i) {
        const double per_iteration = std::max(1e-3, probe[i].result.iterations.back().time_ms / 3.0);
        iterations.push_back(std::clamp(static_cast<int>(budget_ms / per_iteration), 5, contenders()[which[i]].cap));
      }
      const std::vector<MethodTrace> traces = solveAll(sim, which, iterations, budget_ms);
      for (size_t i = 0; i < which.size(); ++i) run.measured[which[i]].traces.push_back(traces[i]);
    }
    sim.step();
  }
  return run;
}

std::string cell(const Reach& r) {
  if (std::isnan(r.ms)) return "—";
  char text[64];
  std::snprintf(text, sizeof text, "%.3g (%.0f; %.0f)", r.ms, r.iterations, r.evaluations);
  return text;
}

std::string header(const std::vector<Contender>& list) {
  std::string h = "| scene |", rule = "|---|";
  for (const Contender& c : list) h += " " + c.method.label + " |", rule += "---:|";
  return h + "\n" + rule + "\n";
}

// One table per tolerance: ms (iterations; evaluations of g), median over the samples; the fastest in bold.
// wins[method][t]: the scenes where the method is fastest to tolerance t.
using Wins = std::map<std::string, std::array<int, 3>>;

std::string reachTables(const std::vector<SceneRun>& runs, Wins& wins) {
  std::string text;
  for (int t = 0; t < 3; ++t) {
    const double tol = kTolerances[t];
    char title[96];
    std::snprintf(title, sizeof title, "\n#### Time to relative error %.0e: ms (iterations; evaluations of g)\n\n", tol);
    text += title + header(contenders());
    for (const SceneRun& run : runs) {
      double best = INFINITY;
      for (const Measured& m : run.measured) best = std::min(best, m.skipped.empty() ? medianReach(m, tol).ms : INFINITY);
      text += "| " + run.measured.front().scene + " |";
      for (const Measured& m : run.measured) {
        const Reach r = m.skipped.empty() ? medianReach(m, tol) : Reach{};
        const bool winner = r.ms == best;
        if (winner) ++wins[m.method][t];
        text.append(winner ? " **" : " ").append(m.skipped.empty() ? cell(r) : std::string("n/a")).append(winner ? "** |" : " |");
      }
      text += "\n";
    }
  }
  return text;
}

std::string budgetTables(const std::vector<SceneRun>& runs) {
  std::string text;
  for (double budget : kBudgets) {
    char title[96];
    std::snprintf(title, sizeof title, "\n#### Relative error reached within %.0f ms\n\n", budget);
    text += title + header(contenders());
    for (const SceneRun& run : runs) {
      double best = INFINITY;
      for (const Measured& m : run.measured)
        if (m.skipped.empty()) best = std::min(best, medianError(m, budget));
      text += "| " + run.measured.front().scene + " |";
      for (const Measured& m : run.measured) {
        if (!m.skipped.empty()) {
          text += " n/a |";
          continue;
        }
        char e[32];
        std::snprintf(e, sizeof e, "%.1e", medianError(m, budget));
        const bool winner = medianError(m, budget) == best;
        text.append(winner ? " **" : " ").append(e).append(winner ? "** |" : " |");
      }
      text += "\n";
    }
  }
  return text;
}

std::string sizesTable(const std::vector<SceneRun>& runs) {
  std::string text = "| scene | vertices | tets | springs | not applicable |\n|---|---:|---:|---:|---|\n";
  for (const SceneRun& run : runs) {
    std::string skipped;
    for (const Measured& m : run.measured)
      if (!m.skipped.empty()) skipped += (skipped.empty() ? "" : "; ") + m.method + ": " + m.skipped;
    text += "| " + run.measured.front().scene + " | " + std::to_string(run.vertices) + " | " + std::to_string(run.tets) + " | " +
            std::to_string(run.springs) + " | " + skipped + " |\n";
  }
  return text;
}

// The convergence CSV of every trace: method = scene/method, frame = the sample's index.
std::string convergenceCsv(const std::vector<SceneRun>& runs) {
  std::ostringstream csv;
  csv.precision(9);
  csv << "method,frame,iter,time_ms,rel_error\n";
  for (const SceneRun& run : runs)
    for (const Measured& m : run.measured)
      for (size_t s = 0; s < m.traces.size(); ++s)
        for (size_t k = 0; k < m.traces[s].rel_error.size(); ++k)
          csv << m.scene << '/' << m.method << ',' << s << ',' << k << ',' << m.traces[s].result.iterations[k].time_ms << ','
              << m.traces[s].rel_error[k] << '\n';
  return csv.str();
}

// Cuts the x axis at three times where the series named `reference` (every method when empty) first reaches 1e-6, so that
// the long tails of the slow methods do not squeeze the fast ones against the axis; each series keeps its
// first point past the cut.
void clipAtArrival(plot::PlotSpec& p, const std::string& reference) {
  double first = INFINITY;
  for (const plot::Series& s : p.series)
    for (size_t k = 0; k < s.x.size() && (reference.empty() || s.label == reference); ++k)
      if (s.y[k] <= 1e-6) {
        first = std::min(first, s.x[k]);
        break;
      }
  if (!std::isfinite(first) || first <= 0) return;
  for (plot::Series& s : p.series) {
    size_t keep = 0;
    while (keep < s.x.size() && s.x[keep] <= 3 * first) ++keep;
    keep = std::min(s.x.size(), keep + 1);
    s.x.resize(keep), s.y.resize(keep);
  }
  p.x = plot::fitAxis(p.series, false, p.x.log);  // time stays on its log axis
  p.x.hi = std::min(p.x.hi, 3 * first);
  p.y = plot::fitAxis(p.series, true, true);
}

// Error against iterations and against CPU time on a scene's first sample, one series per method.
std::vector<plot::PlotSpec> scenePlots(const SceneRun& run) {
  std::vector<MethodResult> results;
  for (const Measured& m : run.measured)
    if (!m.traces.empty()) results.push_back({{m.method, {}}, m.traces.front()});
  std::vector<plot::PlotSpec> panels = {errorPlot(results, false, run.title), errorPlot(results, true, run.title)};
  panels[0].title = run.title + ": error per iteration";
  panels[1].title = run.title + ": error against CPU time (one thread)";
  clipAtArrival(panels[0], plot::methodName("ours"));  // iterations: the others within three times ours's count to 1e-6
  clipAtArrival(panels[1], "");  // time: three times the fastest method's
  return panels;
}

// The tables, the CSV and the figure of the scenes run so far (the figure once a plotted scene is among them).
ExperimentReport writeResults(const std::vector<SceneRun>& runs, const std::vector<std::string>& plotted, const std::filesystem::path& out) {
  Wins wins;
  const std::string tables = "### Scenes\n\n" + sizesTable(runs) + reachTables(runs, wins) + budgetTables(runs);
  std::filesystem::create_directories(out);
  const std::filesystem::path base = out / "solvers";
  std::string summary =
      "scenes won, fastest to relative error 1e-2 / 1e-4 / 1e-6 (median over the samples), of " + std::to_string(runs.size()) + ":";
  for (const auto& [method, count] : wins)
    summary += "\n  " + method + ": " + std::to_string(count[0]) + " / " + std::to_string(count[1]) + " / " + std::to_string(count[2]);
  ExperimentReport report{
      "solvers", "Every method at equal accuracy", "(not in the paper) the methods since 2017 beside ours", summary, {}};
  writeFileBytes(base.string() + ".csv", convergenceCsv(runs));
  std::vector<plot::PlotSpec> panels;
  for (const SceneRun& run : runs)
    if (std::find(plotted.begin(), plotted.end(), run.measured.front().scene) != plotted.end())
      for (plot::PlotSpec& p : scenePlots(run)) panels.push_back(std::move(p));
  if (panels.empty()) report.files.push_back(base.string() + ".csv");
  else writeFigure(base, panels, "Every method at equal accuracy", report, {2, true});  // a scene per row, one legend
  writeFileBytes(base.string() + "_tables.md", tables);
  report.files.push_back(base.string() + "_tables.md");
  return report;
}

}  // namespace

ExperimentReport solvers(const ExperimentOptions& options) {
  const std::vector<std::string> scenes = options.quick ? std::vector<std::string>{"shaking_bar", "flag_wind"} : catalogSceneNames();
  const std::vector<std::string> plotted = options.quick ? scenes : std::vector<std::string>{"twisting_bar", "cloth", "squirrel_head"};
  const int samples = options.quick ? 1 : 3;
  const double budget_ms = options.quick ? 150.0 : 2000.0;
  // One thread, timed by the process's CPU time: the other processes on a shared machine then neither
  // inflate a method's times nor favour the one measured when the machine was quieter.
  struct CpuClock {
    TimerClock before = timerClock();
    CpuClock() { setTimerClock(TimerClock::ProcessCpu); }
    ~CpuClock() { setTimerClock(before); }
  } cpu_clock;
  std::vector<SceneRun> runs;
  ExperimentReport report;
  for (size_t i = 0; i < scenes.size(); ++i) {
    if (options.progress) options.progress(static_cast<int>(i), static_cast<int>(scenes.size()), "solvers: " + scenes[i]);
    runs.push_back(runScene(scenes[i], samples, budget_ms));
    report = writeResults(runs, plotted, options.out);  // after every scene, so that a stopped run keeps what it measured
  }
  if (options.progress) options.progress(static_cast<int>(scenes.size()), static_cast<int>(scenes.size()), "solvers: done");
  return report;
}

}  // namespace qnsim
