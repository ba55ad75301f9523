#include "bench/catalog.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "bench/machine.h"
#include "bench/scaling.h"
#include "core/common/files.h"
#include "core/common/memory_budget.h"
#include "core/common/parallel.h"
#include "core/common/process.h"
#include "core/scene/catalog.h"
#include "experiments/timing.h"
#include "plot/png.h"
#include "plot/svg.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"

namespace qnsim::bench {
namespace {

namespace fs = std::filesystem;
constexpr double kMiB = 1024.0 * 1024.0;

// Targets of the speed work, checked in the report: median ms per frame and peak memory of ours.
struct Target {
  const char* scene;
  double ms, mib;
};
const Target kTargets[] = {{"squirrel_head_large", 150, 1024}};

struct Measured {
  TimingRow row;
  std::string failure;  // empty when the row was measured
};

fs::path scenePath(const std::string& name) {
  for (const fs::path& path : {catalogScenePath(name), benchmarkSceneDir() / (name + ".json")})
    if (fs::exists(path)) return path;
  std::string names;
  for (const auto& list : {catalogSceneNames(), benchmarkSceneNames()})
    for (const std::string& n : list) names += (names.empty() ? "" : ", ") + n;
  throw error("--scenes: no scene '", name, "' in scenes/ or scenes/benchmark/ (there are: ", names, ")");
}

// The last non-empty line of a child's log: its error message.
std::string lastLine(const fs::path& log) {
  std::istringstream text(fs::exists(log) && fs::file_size(log) > 0 ? readFileBytes(log) : std::string());
  std::string last;
  for (std::string line; std::getline(text, line);)
    if (!line.empty()) last = line;
  return last;
}

Measured measureInChild(const fs::path& program, const fs::path& scene, int frames, int samples, int threads, const fs::path& dir,
                        int round) {
  const std::string name = scene.stem().string(), file = round > 1 ? name + ".round" + std::to_string(round) : name;
  const fs::path row = dir / (file + ".csv"), log = dir / (file + ".log");
  fs::remove(row);
  const ProcessResult result =
      runProgram({program.string(), "--scene", scene.string(), "--row-out", row.string(), "--frames", std::to_string(frames), "--samples",
                  std::to_string(samples), "--threads", std::to_string(threads)},
                 log);
  Measured m;
  m.row.scene = name;
  if (result.signal != 0)
    m.failure = "killed by signal " + std::to_string(result.signal);
  else if (result.exit_code != 0)
    m.failure = "exit code " + std::to_string(result.exit_code);
  else if (!fs::exists(row))
    m.failure = "no row written";
  if (!m.failure.empty()) {
    m.failure += ": " + lastLine(log) + " (" + log.string() + ")";
    return m;
  }
  try {
    const std::vector<TimingRow> rows = parseTimingCsv(readFileBytes(row), row.string());
    if (rows.size() != 1) throw error(row.string(), ": ", rows.size(), " rows where one was expected");
    m.row = rows[0];
  } catch (const Error& e) {
    m.failure = e.what();
  }
  return m;
}

void progress(size_t done, size_t total, int round, const Measured& m) {
  const std::string of_round = round > 1 ? ", round " + std::to_string(round) : "";
  if (m.failure.empty())
    std::fprintf(stderr, "qnsim_bench: [%zu/%zu%s] %s: %.1f ms/frame (median), peak %.0f MiB\n", done, total, of_round.c_str(),
                 m.row.scene.c_str(), m.row.ms_median, m.row.peak_mib);
  else
    std::fprintf(stderr, "qnsim_bench: [%zu/%zu%s] %s failed: %s\n", done, total, of_round.c_str(), m.row.scene.c_str(), m.failure.c_str());
}

// The times of the round whose median ms per frame is the median of the rounds measured (the lower
// one of an even count; a later round that failed is left out); everything else (Newton, the errors,
// the memory) of the first round, which alone ran Newton.
Measured medianRound(Measured first, const std::vector<Measured>& later) {
  if (!first.failure.empty()) return first;
  std::vector<const TimingRow*> rounds = {&first.row};
  for (const Measured& m : later)
    if (m.failure.empty()) rounds.push_back(&m.row);
  std::sort(rounds.begin(), rounds.end(), [](const TimingRow* a, const TimingRow* b) { return a->ms_median < b->ms_median; });
  const TimingRow median = *rounds[(rounds.size() - 1) / 2];
  TimingRow& row = first.row;
  row.ms_median = median.ms_median, row.ms_mean = median.ms_mean, row.cpu_ms = median.cpu_ms;
  row.derivatives_ms = median.derivatives_ms, row.linear_solve_ms = median.linear_solve_ms, row.lbfgs_ms = median.lbfgs_ms;
  row.line_search_ms = median.line_search_ms, row.contacts_ms = median.contacts_ms, row.ls_trials = median.ls_trials;
  return first;
}

// Each scene in a child process, in turn, `o.rounds` times; Newton's samples only in the first round.
std::vector<Measured> measureScenes(const CatalogOptions& o, const fs::path& program, const std::vector<fs::path>& scenes, int samples) {
  fs::create_directories(o.out / "rows");
  std::vector<Measured> measured;
  for (const fs::path& scene : scenes) {
    measured.push_back(measureInChild(program, scene, o.frames, samples, o.threads, o.out / "rows", 1));
    progress(measured.size(), scenes.size(), 1, measured.back());
  }
  std::vector<std::vector<Measured>> later(scenes.size());
  for (int round = 2; round <= o.rounds; ++round)
    for (size_t i = 0; i < scenes.size(); ++i) {
      later[i].push_back(measureInChild(program, scenes[i], o.frames, 0, o.threads, o.out / "rows", round));
      progress(i + 1, scenes.size(), round, later[i].back());
    }
  for (size_t i = 0; i < scenes.size(); ++i) measured[i] = medianRound(measured[i], later[i]);
  return measured;
}

// The first `options.scaling` bars, written as scene files and measured without Newton.
std::vector<Measured> measureScaling(const CatalogOptions& o, const fs::path& program) {
  fs::create_directories(o.out / "scenes");
  std::vector<fs::path> scenes;
  const auto& cells = scalingBarCells();
  for (size_t i = 0; i < std::min<size_t>(o.scaling, cells.size()); ++i) {
    scenes.push_back(o.out / "scenes" / ("twisting_bar_" + std::to_string(5 * cells[i].prod()) + ".json"));
    writeFileBytes(scenes.back(), scalingBarScene(cells[i]));
  }
  return measureScenes(o, program, scenes, 0);
}

std::vector<TimingRow> rowsOf(const std::vector<Measured>& measured) {
  std::vector<TimingRow> rows;
  for (const Measured& m : measured)
    if (m.failure.empty()) rows.push_back(m.row);
  return rows;
}

std::string failures(const std::vector<Measured>& measured) {
  std::string text;
  for (const Measured& m : measured)
    if (!m.failure.empty()) text += "- **" + m.row.scene + " failed**: " + m.failure + "\n";
  return text.empty() ? text : "\n" + text;
}

std::string format(const char* pattern, double a, double b = 0, double c = 0) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

std::string targetsSection(const std::vector<TimingRow>& rows, int threads) {
  std::string text;
  for (const Target& t : kTargets)
    for (const TimingRow& r : rows)
      if (r.scene == t.scene)
        text += "- `" + r.scene + "`: " + format("%.1f ms per frame (median; target %.0f ms with 2 threads), ", r.ms_median, t.ms) +
                format("peak memory %.0f MiB (target %.0f MiB)", r.ours_peak_mib, t.mib) + " with " + std::to_string(threads) +
                " thread(s).\n";
  return text.empty() ? text : "\nTargets of the speed work:\n\n" + text;
}

// The bars' table, the fitted exponents and the plot (written beside the report).
std::string scalingSection(const CatalogOptions& o, const std::vector<Measured>& measured) {
  const std::vector<TimingRow> rows = rowsOf(measured);
  std::vector<double> tets, ms, cpu;
  std::string table =
      "| tets | vertices | frames | ms/frame (median) | ms/frame (mean) | CPU ms/frame, all threads | µs per tet (median) | "
      "peak memory (MiB) |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const TimingRow& r : rows) {
    tets.push_back(r.tets), ms.push_back(r.ms_median), cpu.push_back(r.cpu_ms);
    table += format("| %.0f | %.0f | %.0f ", r.tets, r.vertices, r.frames) +
             format("| %.2f | %.2f | %.2f ", r.ms_median, r.ms_mean, r.cpu_ms) +
             format("| %.3f | %.0f |\n", 1e3 * r.ms_median / r.tets, r.peak_mib);
  }
  const PowerFit fit = fitPowerLaw(tets, ms), cpu_fit = fitPowerLaw(tets, cpu);
  const std::vector<plot::PlotSpec> plot = {scalingPlot(tets, ms, fit, cpu)};
  writeFileBytes(o.out / "scaling.svg", plot::svgPlots(plot, "qnsim_bench --catalog: scaling"));
  plot::writePng(plot::rasterizePlots(plot, "qnsim_bench --catalog: scaling"), o.out / "scaling.png");
  writeFileBytes(o.out / "scaling.csv", timingCsv(rows));
  const double first = tets.empty() ? 0 : tets.front(), last = tets.empty() ? 0 : tets.back();
  return "\n### Scaling: the twisting bar from " + format("%.0f to %.0f tets\n\n", first, last) +
         "`scenes/twisting_bar.json` with its bar a box of 5-tet cells (the scene files are in `scenes/` beside this report), ours "
         "only.\n\n" +
         table + failures(measured) +
         format("\nms per frame = c tets^s fitted by least squares on the logarithms: **s = %.2f** (R² = %.3f) for the median wall time, ",
                fit.slope, fit.r2) +
         format(
             "s = %.2f (R² = %.3f) for the CPU time; s = 1 is a cost linear in the size.\n\n"
             "![ms per frame against tets, log-log](scaling.png)\n",
             cpu_fit.slope, cpu_fit.r2);
}

// How the rows were measured, for the report.
std::string method(const CatalogOptions& o) {
  std::string text =
      "Each scene ran alone in a process of its own with its own solver (the catalog's: 10 quasi-Newton iterations per frame, m = 5, "
      "every iteration taken) for " +
      (o.frames > 0 ? std::to_string(o.frames) + " frames" : std::string("its own number of frames, at most 300")) +
      ": the times per frame and per phase are over that trajectory, the CPU time is the process's, all threads together" +
      (o.rounds > 1 ? "; every scene ran in turn, " + std::to_string(o.rounds) +
                          " rounds, and its times are those of its round with the median of the rounds' median ms per frame, so that a "
                          "busy minute of a shared machine touches one round of a scene, not all. "
                    : ". ");
  if (o.samples > 0)
    text += "The same trajectory then ran again and, at " + std::to_string(o.samples) +
            (o.samples == 1 ? " frame" : " evenly spaced frames") +
            " (one that x = y already solves, such as free fall, gives its place to the next; the cells stay empty when no later frame "
            "needed a solve), ours and one Newton iteration (per-element projected Hessian, direct solve) solved the next frame from the "
            "same state against its exact solution: Newton's time and both relative errors (Eq. 12) are medians over those frames. ";
  else
    text += "Newton was not run (--samples 0). ";
  return text +
         "Peak memory is the process's peak resident size after ours' trajectory, and at the end (with Newton's Hessians and the exact "
         "solves). In brackets: the paper's Table I (Intel i7-4910MQ, 4 cores). Derivatives are g and its gradient at each frame's start; "
         "the line search's trials evaluate both as well and count under line search.\n\n";
}

std::string header(const CatalogOptions& o, int threads, const std::string& load_before, const std::string& load_after) {
  char when[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return std::string("## qnsim_bench --catalog (") + when + ")\n\nMachine: " + describeMachine(threads) + ".  \nCommand: `" + o.command +
         "`.  \nLoad average (1 / 5 / 15 min) before the run: " + load_before + "; after: " + load_after + ".\n\n" + method(o);
}

}  // namespace

void measureRow(const fs::path& scene_path, int frames, int samples, int threads, const fs::path& row_out) {
  Scene scene = loadScene(scene_path);
  setParameter(scene.settings, "threads", std::to_string(threads));
  const int n = frames > 0 ? frames : std::min(scene.frames, 300);
  TimingRow row = timeScene(scene_path.stem().string(), scene, n);
  row.ours_peak_mib = peakResidentBytes() / kMiB;
  compareWithNewton(row, scene, n, samples);
  row.peak_mib = peakResidentBytes() / kMiB;
  writeFileBytes(row_out, timingCsv({row}));
}

int runCatalog(const CatalogOptions& o, const fs::path& program) {
  std::vector<fs::path> scenes;
  for (const std::string& name : o.scenes) scenes.push_back(scenePath(name));
  if (o.scenes.empty())
    for (const auto& [dir, names] : {std::pair{catalogDir(), catalogSceneNames()}, std::pair{benchmarkSceneDir(), benchmarkSceneNames()}})
      for (const std::string& name : names) scenes.push_back(dir / (name + ".json"));
  setThreadCount(o.threads);
  const int threads = threadCount();
  const std::string load_before = loadAverage();
  const std::vector<Measured> measured = measureScenes(o, program, scenes, o.samples);
  const std::vector<Measured> bars = o.scaling > 0 ? measureScaling(o, program) : std::vector<Measured>{};
  const std::vector<TimingRow> rows = rowsOf(measured);
  std::string report =
      header(o, threads, load_before, loadAverage()) + timingMarkdown(rows) + failures(measured) + targetsSection(rows, threads);
  if (!bars.empty()) report += scalingSection(o, bars);
  writeFileBytes(o.out / "catalog.csv", timingCsv(rows));
  writeFileBytes(o.out / "catalog.md", report);
  std::fputs(report.c_str(), stdout);
  const auto failed = [](const Measured& m) { return !m.failure.empty(); };
  return std::any_of(measured.begin(), measured.end(), failed) || std::any_of(bars.begin(), bars.end(), failed) ? 1 : 0;
}

}  // namespace qnsim::bench
