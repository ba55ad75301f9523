// qnsim_bench: the paper's Table I comparison on a scene file. The scene's own solver settings (the
// catalog's: 10 quasi-Newton iterations, L-BFGS m = 5) against Newton's method (1 iteration, per-element
// PSD projection, direct solve), both timed over whole trajectories in the same process, and their
// relative errors (Eq. 12) on the same frames against the exact solution. Prints a Markdown report
// (docs/benchmarks.md). With --catalog: Table I for every scene and the scaling curve (catalog.h).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <numeric>
#include <sstream>

#include "bench/catalog.h"
#include "bench/machine.h"
#include "bench/scaling.h"
#include "core/common/parallel.h"
#include "core/scene/catalog.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"

namespace qnsim::bench {
namespace {

struct Options {
  std::string scene = catalogScenePath("twisting_bar").string();
  int frames = 0;
  int threads = 0;
  int repeats = 3;
  std::string error_frames = "1-4,31-34,61-64";
  int sample_every = 10;
};

struct RunStats {
  double ms_per_frame = 0, trials_per_iteration = 0, lbfgs_share = 0;
  PhaseTimes phases;  // per frame
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double mean(const std::vector<double>& v) { return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size(); }

RunStats runTrajectory(Scene scene, const SolverSettings& method, int frames) {
  scene.settings.solver = method;
  Simulation sim(scene);
  RunStats s;
  long iterations = 0, trials = 0;
  for (int f = 0; f < frames; ++f) {
    sim.step();
    const FrameRecord& r = sim.lastFrame();
    s.ms_per_frame += r.frame_ms / frames;
    s.phases += r.times / frames;
    iterations += r.iterations;
    trials += r.ls_trials;
  }
  s.trials_per_iteration = double(trials) / iterations;
  s.lbfgs_share = s.phases.lbfgs / s.ms_per_frame;
  return s;
}

// Median over repeats of the mean time per frame; the other figures from the median run.
RunStats timeMethod(const Scene& scene, const SolverSettings& method, int frames, int repeats) {
  std::vector<RunStats> runs;
  for (int r = 0; r < repeats; ++r) runs.push_back(runTrajectory(scene, method, frames));
  std::sort(runs.begin(), runs.end(), [](const RunStats& a, const RunStats& b) { return a.ms_per_frame < b.ms_per_frame; });
  return runs[runs.size() / 2];
}

std::vector<int> parseFrames(const std::string& text) {
  std::vector<int> frames;
  std::stringstream list(text);
  for (std::string range; std::getline(list, range, ',');) {
    const size_t dash = range.find('-');
    int first = 0, last = 0;
    try {
      first = std::stoi(range.substr(0, dash));
      last = dash == std::string::npos ? first : std::stoi(range.substr(dash + 1));
    } catch (const std::exception&) {
      throw error("--error-frames: '", range, "' is neither a frame number nor a range like 31-34");
    }
    if (first < 1 || last < first) throw error("--error-frames: '", range, "' is not a range of frames from 1 on");
    for (int f = first; f <= last; ++f) frames.push_back(f);
  }
  return frames;
}

// Both methods solving the same frames from the same states (the states our method reaches).
struct SameStates {
  std::vector<double> ours, newton;  // relative errors
  std::vector<double> ours_ms, newton_ms;
  int wins = 0;
};

// Relative errors and solve times of 10 QN iterations and of 1 Newton iteration, both from the state
// our method reached (the same y), at the listed frames.
SameStates compareOnSameStates(const Scene& scene, const std::vector<int>& frames) {
  const std::vector<Method> methods = {{"ours", {}}, {"newton", {"solver.method=newton", "solver.iterations=1"}}};
  Simulation sim(scene);
  SameStates e;
  for (int frame : frames) {
    while (sim.frame() + 1 < frame) sim.step();
    const auto traces = sim.compareNextFrame(methods);
    e.ours.push_back(traces[0].rel_error.back());
    e.newton.push_back(traces[1].rel_error.back());
    e.ours_ms.push_back(traces[0].result.iterations.back().time_ms);
    e.newton_ms.push_back(traces[1].result.iterations.back().time_ms);
    e.wins += e.ours.back() < e.newton.back();
  }
  return e;
}

// A method's own trajectory: the first frame with an inverted element and the largest g, to tell
// whether it stays stable (0 = never inverted).
struct Stability {
  int first_inverted = 0;
  double max_g = 0;
};
Stability trackStability(Scene scene, const SolverSettings& method, int frames) {
  scene.settings.solver = method;
  Simulation sim(scene);
  Stability t;
  for (int f = 0; f < frames; ++f) {
    sim.step();
    if (sim.lastFrame().inverted > 0 && t.first_inverted == 0) t.first_inverted = sim.frame();
    t.max_g = std::max(t.max_g, sim.lastFrame().g);
  }
  return t;
}

// "scenes/NAME.json" for a catalog scene, the path as given otherwise.
std::string displayPath(const std::string& path) {
  const std::filesystem::path p = std::filesystem::weakly_canonical(path);
  if (p.parent_path() == std::filesystem::weakly_canonical(catalogDir())) return "scenes/" + p.filename().string();
  return path;
}

std::string describeMethod(const SolverSettings& s) {
  Settings settings;
  settings.solver = s;
  std::string text = std::get<std::string>(findParameter("solver.method").get(settings)) + ", " + std::to_string(s.iterations) + " iterations";
  if (s.method == SolverMethod::QuasiNewton) text += ", m = " + std::to_string(s.lbfgs_window);
  return text;
}

void printReport(const Options& o, const Scene& scene, const Model& model, const SolverSettings& method, const RunStats& ours,
                 const SameStates& chosen, const SameStates& sampled, const Stability& newton_run, double ours_max_g, int frames) {
  std::vector<double> ours_ms = chosen.ours_ms, newton_ms = chosen.newton_ms;
  ours_ms.insert(ours_ms.end(), sampled.ours_ms.begin(), sampled.ours_ms.end());
  newton_ms.insert(newton_ms.end(), sampled.newton_ms.begin(), sampled.newton_ms.end());
  const double t_ours = mean(ours_ms), t_newton = mean(newton_ms);
  const std::string path = displayPath(o.scene);
  std::printf("### %s: our method vs Newton\n\n", scene.name.c_str());
  std::printf("Machine: %s.  \n", describeMachine(threadCount()).c_str());
  std::printf("Scene `%s`: %d vertices, %d tets, %d springs; h = %.4g s. Command: `qnsim_bench --scene %s --threads %d`.\n\n",
              path.c_str(), model.vertexCount(), model.tets.size(), model.springs.size(), scene.settings.time_step, path.c_str(),
              o.threads);
  std::printf("Both methods solve the same frames from the same states (those our method reaches): the frames %s and every "
              "%dth frame of %d.\n\n",
              o.error_frames.c_str(), o.sample_every, frames);
  std::printf("| | ours (the scene's solver): %s | Newton: 1 iteration | ratio |\n|---|---:|---:|---:|\n", describeMethod(method).c_str());
  std::printf("| solve time per frame (mean over %zu frames) | %.2f ms | %.1f ms | Newton / ours = **%.1f x** |\n", ours_ms.size(), t_ours,
              t_newton, t_newton / t_ours);
  const double per_iteration = t_ours / method.iterations;
  std::printf("| time per iteration | %.3f ms | %.1f ms | %.0f x |\n", per_iteration, t_newton, t_newton / per_iteration);
  std::printf("| relative error (Eq. 12) on the frames %s: median / mean | %.2e / %.2e | %.2e / %.2e | ours lower on %d of %zu |\n",
              o.error_frames.c_str(), median(chosen.ours), mean(chosen.ours), median(chosen.newton), mean(chosen.newton), chosen.wins,
              chosen.ours.size());
  std::printf("| relative error on every %dth frame: median / mean | %.2e / %.2e | %.2e / %.2e | ours lower on %d of %zu |\n\n",
              o.sample_every, median(sampled.ours), mean(sampled.ours), median(sampled.newton), mean(sampled.newton), sampled.wins,
              sampled.ours.size());
  std::printf("Our method's own %d-frame trajectory (median of %d runs): %.2f ms per frame in all (solve, handles, telemetry), "
              "%.3f line-search trials per iteration, L-BFGS loops (Alg. 2 without its solve) %.3f ms = %.2f %% of the frame; per frame "
              "%.2f ms in linear solves and %.2f ms in objective + gradient evaluations. ",
              frames, o.repeats, ours.ms_per_frame, ours.trials_per_iteration, ours.phases.lbfgs, 100 * ours.lbfgs_share,
              ours.phases.linear_solve, ours.phases.line_search + ours.phases.gradient);
  if (newton_run.first_inverted > 0)
    std::printf("Newton's own trajectory with one iteration per frame inverts elements from frame %d on and its g grows to %.2g "
                "(ours stays below %.3g).\n\n",
                newton_run.first_inverted, newton_run.max_g, ours_max_g);
  else
    std::printf("Newton's own trajectory with one iteration per frame stays stable (largest g %.3g; ours %.3g).\n\n", newton_run.max_g,
                ours_max_g);
}

}  // namespace

int runScene(const Options& o) {
  Scene scene = loadScene(o.scene);
  setParameter(scene.settings, "threads", std::to_string(o.threads));
  const int frames = o.frames > 0 ? o.frames : scene.frames;
  const SolverSettings ours = scene.settings.solver;  // the scene's own method (the catalog's: QN, 10 iterations, m = 5)
  SolverSettings newton = ours;
  newton.method = SolverMethod::Newton;
  newton.iterations = 1;
  const RunStats ours_time = timeMethod(scene, ours, frames, o.repeats);
  std::vector<int> sampled_frames;
  for (int f = o.sample_every; f <= frames; f += o.sample_every) sampled_frames.push_back(f);
  const SameStates chosen = compareOnSameStates(scene, parseFrames(o.error_frames));
  const SameStates sampled = compareOnSameStates(scene, sampled_frames);
  printReport(o, scene, Simulation(scene).model(), ours, ours_time, chosen, sampled, trackStability(scene, newton, frames),
              trackStability(scene, ours, frames).max_g, frames);
  return 0;
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

// The command line as typed (program without its folder), for the report.
std::string commandLine(int argc, char** argv) {
  std::string text = std::filesystem::path(argv[0]).filename().string();
  for (int i = 1; i < argc; ++i) text += std::string(" ") + argv[i];
  return text;
}

int main(int argc, char** argv) {
  Options o;
  CatalogOptions catalog;
  bool run_catalog = false, quick = false;
  std::string scenes, row_out;
  CLI::App app{"Times our quasi-Newton method against Newton's method on a scene and compares their relative errors; with --catalog, "
               "Table I for every scene and the scaling curve, as a Markdown report."};
  app.add_option("--scene", o.scene, "Scene file")->check(CLI::ExistingFile);
  app.add_option("--frames", o.frames, "Frames per timed trajectory (default: the scene's; with --catalog and --row-out at most 300)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--threads", o.threads, "Worker threads (0 = QNSIM_THREADS if set, else all cores)")->check(CLI::NonNegativeNumber);
  app.add_option("--repeats", o.repeats, "Timed trajectories of our method (the median is reported)")->check(CLI::PositiveNumber);
  app.add_option("--error-frames", o.error_frames,
                 "Frames where the errors are measured, e.g. 1-4,31-34 (default: the twisting bar's three twist pulses)");
  app.add_option("--sample-every", o.sample_every, "Also measure the errors on every Nth frame")->check(CLI::PositiveNumber);
  app.add_flag("--catalog", run_catalog,
               "Table I for every scene of scenes/ and scenes/benchmark/ (each in a process of its own) and the scaling curve of the "
               "twisting bar; writes the report and CSV files to --out");
  app.add_option("--scenes", scenes, "With --catalog: only these scenes, e.g. hippo,cloth");
  app.add_option("--out", catalog.out, "With --catalog: the folder of the report (catalog.md, catalog.csv, scaling.csv, scaling.png)");
  app.add_option("--samples", catalog.samples, "With --catalog or --row-out: frames where Newton and the errors are measured (default 4)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--scaling", catalog.scaling, "With --catalog: bar sizes of the scaling curve, 1k to 130k tets (default 5, 0 = none)")
      ->check(CLI::Range(0, static_cast<int>(scalingBarCells().size())));
  app.add_option("--rounds", catalog.rounds,
                 "With --catalog: rounds of each scene's timed trajectory, the scenes in turn; each scene's times are its median round's "
                 "(default 3; Newton only in the first)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--quick", quick, "With --catalog: a test-sized run (6 frames, 1 sample, the 2 smallest bars, 1 round, unless given)");
  app.add_option("--row-out", row_out, "Measure --scene as one row of --catalog's table and write it as CSV to this file "
                                       "(what --catalog runs in a process per scene)");
  CLI11_PARSE(app, argc, argv);
  try {
    if (!row_out.empty()) {
      measureRow(o.scene, o.frames, catalog.samples, o.threads, row_out);
      return 0;
    }
    if (!run_catalog) return runScene(o);
    if (quick) {
      if (app.count("--frames") == 0) o.frames = 6;
      if (app.count("--samples") == 0) catalog.samples = 1;
      if (app.count("--scaling") == 0) catalog.scaling = 2;
      if (app.count("--rounds") == 0) catalog.rounds = 1;
    }
    catalog.scenes = splitList(scenes);
    catalog.threads = o.threads;
    catalog.frames = o.frames;
    catalog.command = commandLine(argc, argv);
    return runCatalog(catalog, std::filesystem::read_symlink("/proc/self/exe"));
  } catch (const Error& e) {
    std::fprintf(stderr, "qnsim_bench: error: %s\n", e.what());
    return 1;
  }
}

}  // namespace qnsim::bench

int main(int argc, char** argv) { return qnsim::bench::main(argc, argv); }
