#include "experiments/timing.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

#include "experiments/statistics.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"

namespace qnsim {
namespace {

constexpr double kNone = NAN;
const PaperTimingRow kPaperRows[] = {{"thin_sheet", 10.8, 0.026, 4.4, 2.7e-8, 184, 8.8e-4},
                                     {"sphere_spline_a", 24.5, 0.155, 21.2, 2.7e-7, 188, 6.9e-4},
                                     {"sphere_spline_b", 21.8, 0.156, 19.7, 6.9e-6, 187, 2.5e-4},
                                     {"shaking_bar", 10.1, 0.193, 7.2, 1.6e-4, 171, 4.4e-3},
                                     {"hippo", 11.9, 0.555, 40.6, 2.2e-3, 640, 3.7e-2},
                                     {"twisting_bar", 10.6, 0.945, 45.6, 9.4e-5, 681, 7.9e-3},
                                     {"cloth", 10.0, 1.20, 42.3, 9.3e-4, 798, 1.2e-2},
                                     {"bunny_torus", 49.2, 2.19, 623, 9.8e-2, 2700, 2.8e-1},
                                     {"squirrel_head", 10.7, 1.41, 153, 8.3e-8, 2400, 9.1e-6},
                                     {"squirrel_head_large", 10.5, 6.38, 706, 1.5e-5, 15800, 5.4e-5},
                                     // The teaser's six materials on the Ditto mesh (the paper's neo_hookean row is Table I's Ditto).
                                     {"corotated", kNone, kNone, 20.1, kNone, 308, kNone},
                                     {"neo_hookean", 11.7, 0.203, 17.8, 3.0e-5, 305, 1.6e-3},
                                     {"stvk", kNone, kNone, 17.2, kNone, 305, kNone},
                                     {"polynomial", kNone, kNone, 21.5, kNone, 308, kNone},
                                     {"spline_a", kNone, kNone, 36.6, kNone, 315, kNone},
                                     {"spline_b", kNone, kNone, 30.7, kNone, 316, kNone}};
const PaperTimingRow kNoPaperRow{"", kNone, kNone, kNone, kNone, kNone, kNone};

// The scene with its own solver taking every iteration.
Simulation simulationFor(Scene scene) {
  setParameter(scene.settings, "solver.gradient_tolerance", "0");
  return Simulation(scene);
}

// CPU time of every thread of this process so far.
double processCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

std::string cell(double v, const char* format) {
  if (std::isnan(v)) return "";
  char text[32];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

// Ours and, in brackets, the paper's.
std::string both(double ours, double paper, const char* format) {
  return cell(ours, format) + (std::isnan(paper) ? "" : " [" + cell(paper, format) + "]");
}

std::vector<std::string> splitCsvLine(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  for (std::string c; std::getline(in, c, ',');) cells.push_back(c);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

}  // namespace

const PaperTimingRow* paperTimingRow(const std::string& name) {
  for (const PaperTimingRow& r : kPaperRows)
    if (name == r.scene) return &r;
  return nullptr;
}

TimingRow timeScene(const std::string& name, const Scene& scene, int frames) {
  Simulation sim = simulationFor(scene);
  TimingRow row;
  row.scene = name;
  row.vertices = sim.model().vertexCount();
  row.tets = sim.model().tets.size();
  row.springs = sim.model().springs.size();
  row.frames = frames;
  std::vector<double> ms;
  PhaseTimes phases;
  const double cpu_start = processCpuMs();
  for (int f = 1; f <= frames; ++f) {
    sim.step();
    const FrameRecord& r = sim.lastFrame();
    row.per_frame.push_back(r);
    ms.push_back(r.frame_ms);
    phases += r.times;
    row.ls_trials += r.ls_trials / double(frames);
  }
  row.cpu_ms = (processCpuMs() - cpu_start) / frames;
  row.ms_median = median(ms);
  row.ms_mean = std::accumulate(ms.begin(), ms.end(), 0.0) / frames;
  phases = phases / frames;
  row.derivatives_ms = phases.gradient;
  row.linear_solve_ms = phases.linear_solve;
  row.lbfgs_ms = phases.lbfgs;
  row.line_search_ms = phases.line_search;
  row.contacts_ms = phases.contacts;
  return row;
}

void compareWithNewton(TimingRow& row, const Scene& scene, int frames, int samples) {
  if (samples <= 0) return;
  Simulation sim = simulationFor(scene);
  const std::vector<Method> methods = {{"ours", {}}, {"newton", {"solver.method=newton", "solver.iterations=1"}}};
  std::vector<double> ours_error, newton_ms, newton_error;
  bool sample_due = false;
  for (int f = 1; f <= frames; ++f) {
    sample_due |= f % std::max(1, frames / samples) == 0;
    if (sample_due) {
      const auto traces = sim.compareNextFrame(methods);
      if (traces[0].rel_error.front() == 1.0) {  // else x = y already solves it (free fall): try the next frame
        ours_error.push_back(traces[0].rel_error.back());
        newton_error.push_back(traces[1].rel_error.back());
        newton_ms.push_back(traces[1].result.iterations.back().time_ms);
        sample_due = false;
      }
    }
    if (f < frames) sim.step();
  }
  row.ours_error = median(ours_error);
  row.newton_ms = median(newton_ms);
  row.newton_error = median(newton_error);
  row.error_samples = ours_error.size();
}

const std::vector<TimingColumn>& timingColumns() {
  using R = TimingRow;
  using P = PaperTimingRow;
  static const std::vector<TimingColumn> columns = {
      {"vertices", &R::vertices, nullptr},
      {"tets", &R::tets, nullptr},
      {"springs", &R::springs, nullptr},
      {"frames", &R::frames, nullptr},
      {"ms_median", &R::ms_median, &P::ours_ms},
      {"ms_mean", &R::ms_mean, nullptr},
      {"cpu_ms", &R::cpu_ms, nullptr},
      {"derivatives_ms", &R::derivatives_ms, nullptr},
      {"linear_solve_ms", &R::linear_solve_ms, nullptr},
      {"lbfgs_ms", &R::lbfgs_ms, &P::lbfgs_ms},
      {"line_search_ms", &R::line_search_ms, nullptr},
      {"contacts_ms", &R::contacts_ms, nullptr},
      {"ls_trials_per_frame", &R::ls_trials, &P::ls_trials},
      {"ours_rel_error", &R::ours_error, &P::ours_error},
      {"newton_ms", &R::newton_ms, &P::newton_ms},
      {"newton_rel_error", &R::newton_error, &P::newton_error},
      {"error_samples", &R::error_samples, nullptr},
      {"ours_peak_mib", &R::ours_peak_mib, nullptr},
      {"peak_mib", &R::peak_mib, nullptr},
  };
  return columns;
}

std::string timingCsv(const std::vector<TimingRow>& rows) {
  std::ostringstream csv;
  csv << "scene";
  for (const TimingColumn& c : timingColumns()) csv << ',' << c.name;
  for (const TimingColumn& c : timingColumns())
    if (c.paper) csv << ",paper_" << c.name;
  csv << '\n';
  for (const TimingRow& r : rows) {
    const PaperTimingRow* found = paperTimingRow(r.scene);
    const PaperTimingRow& paper = found ? *found : kNoPaperRow;
    csv << r.scene;
    for (const TimingColumn& c : timingColumns()) csv << ',' << cell(r.*c.value, "%.6g");
    for (const TimingColumn& c : timingColumns())
      if (c.paper) csv << ',' << cell(paper.*c.paper, "%.6g");
    csv << '\n';
  }
  return csv.str();
}

std::vector<TimingRow> parseTimingCsv(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = splitCsvLine(line);
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < header.size(); ++i) index[header[i]] = i;
  for (const TimingColumn& c : timingColumns())
    if (!index.count(c.name)) throw error(what, ": no column '", c.name, "' in the header");
  std::vector<TimingRow> rows;
  for (int number = 2; std::getline(in, line); ++number) {
    const std::vector<std::string> cells = splitCsvLine(line);
    if (cells.size() != header.size()) throw error(what, ":", number, ": ", cells.size(), " cells where the header has ", header.size());
    TimingRow& r = rows.emplace_back();
    r.scene = cells[0];
    for (const TimingColumn& c : timingColumns()) {
      const std::string& v = cells[index[c.name]];
      try {
        r.*c.value = v.empty() ? NAN : std::stod(v);
      } catch (const std::exception&) {
        throw error(what, ":", number, ": ", c.name, " '", v, "' is not a number");
      }
    }
  }
  return rows;
}

std::string timingMarkdown(const std::vector<TimingRow>& rows) {
  const bool memory = std::any_of(rows.begin(), rows.end(), [](const TimingRow& r) { return !std::isnan(r.peak_mib); });
  std::ostringstream md;
  md << "| scene | vertices | tets | springs | line-search trials / frame | L-BFGS overhead (ms) | ours (ms/frame, median) | "
        "ours rel. error | Newton (ms/frame) | Newton rel. error | Newton / ours |"
     << (memory ? " peak memory (MiB): ours / with Newton |" : "") << "\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
     << (memory ? "---:|" : "") << '\n';
  for (const TimingRow& r : rows) {
    const PaperTimingRow* found = paperTimingRow(r.scene);
    const PaperTimingRow& p = found ? *found : kNoPaperRow;
    md << "| " << r.scene << " | " << cell(r.vertices, "%.0f") << " | " << cell(r.tets, "%.0f") << " | " << cell(r.springs, "%.0f") << " | "
       << both(r.ls_trials, p.ls_trials, "%.1f") << " | " << both(r.lbfgs_ms, p.lbfgs_ms, "%.3f") << " | "
       << both(r.ms_median, p.ours_ms, "%.1f") << " | " << both(r.ours_error, p.ours_error, "%.1e") << " | "
       << both(r.newton_ms, p.newton_ms, "%.0f") << " | " << both(r.newton_error, p.newton_error, "%.1e") << " | "
       << both(r.newton_ms / r.ms_median, p.newton_ms / p.ours_ms, "%.1f") << " |";
    if (memory) md << ' ' << cell(r.ours_peak_mib, "%.0f") << " / " << cell(r.peak_mib, "%.0f") << " |";
    md << '\n';
  }
  md << "\n| scene | frames | median | mean | CPU, all threads | derivatives | linear solves | L-BFGS loops | line search | contacts | "
        "rest of the frame |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const TimingRow& r : rows) {
    const double phases = r.derivatives_ms + r.linear_solve_ms + r.lbfgs_ms + r.line_search_ms + r.contacts_ms;
    md << "| " << r.scene << " | " << cell(r.frames, "%.0f");
    for (double v : {r.ms_median, r.ms_mean, r.cpu_ms, r.derivatives_ms, r.linear_solve_ms, r.lbfgs_ms, r.line_search_ms, r.contacts_ms,
                     r.ms_mean - phases})
      md << " | " << cell(v, "%.2f");
    md << " |\n";
  }
  return md.str();
}

}  // namespace qnsim
