#pragma once
// Table I's measurement, shared by `qnsim experiment table1` and `teaser` and by `qnsim_bench --catalog`:
// a scene run with its own solver (the catalog's: 10 quasi-Newton iterations, m = 5), timed per frame and
// per phase; then the states that run reaches solved again by ours and by one Newton iteration against an
// exact solution (Eq. 12); and the paper's row beside ours. Times are this machine's; the paper's are an
// i7-4910MQ's (the paper's Table I).
#include <string>
#include <vector>

#include "qnsim/scene.h"
#include "qnsim/telemetry.h"

namespace qnsim {

// A row of the paper's Table I (S2), or the teaser's per-material times (Fig. 1: times only); NaN where
// the paper gives no value.
struct PaperTimingRow {
  const char* scene;
  double ls_trials, lbfgs_ms, ours_ms, ours_error, newton_ms, newton_error;
};
// The paper's row for a scene (or teaser material) name, or nullptr.
const PaperTimingRow* paperTimingRow(const std::string& name);

// One scene's figures; NaN where nothing was measured. Counts are doubles so that every column is read
// and written alike (timingColumns).
struct TimingRow {
  std::string scene;
  double vertices = 0, tets = 0, springs = 0, frames = 0;
  double ms_median = 0, ms_mean = 0;  // per frame of ours' own trajectory, every phase included
  // The process's CPU time per frame over that trajectory, all threads together: steadier than wall time
  // on a machine shared with other work, which preempts a long frame more often than a short one.
  double cpu_ms = 0;
  // Mean ms per frame in each phase (PhaseTimes): g and its gradient at the frame's start, linear solves,
  // the L-BFGS loops of Alg. 2 without its solve (the paper's "L-BFGS overhead"), the line search's trials
  // (each evaluates g and its gradient), the contact set's refreshes.
  double derivatives_ms = 0, linear_solve_ms = 0, lbfgs_ms = 0, line_search_ms = 0, contacts_ms = 0;
  double ls_trials = 0;  // line-search trials (objective evaluations) per frame
  // Medians over the sampled frames, both methods from the same state: ours' and Newton's relative errors
  // (Eq. 12) and Newton's solve time.
  double ours_error = NAN, newton_ms = NAN, newton_error = NAN, error_samples = 0;
  // Peak resident memory (MiB) after ours' trajectory and at the end (Newton and the exact solves too);
  // only meaningful for a process that ran this scene alone (qnsim_bench runs each in a child process).
  double ours_peak_mib = NAN, peak_mib = NAN;
  std::vector<FrameRecord> per_frame;  // ours, every frame (not in the CSV)
};

// Ours' own trajectory of `frames` frames with every iteration taken (no early stop on a small
// gradient, as in the paper): counts, times per frame and per phase, trials.
TimingRow timeScene(const std::string& name, const Scene& scene, int frames);
// At `samples` evenly spaced frames of the same trajectory (a frame that x = y already solves, such as
// free fall, gives its place to the next), solves the next frame with ours and with one Newton iteration
// against an exact solution; fills the errors and Newton's time. No samples: they stay NaN.
void compareWithNewton(TimingRow& row, const Scene& scene, int frames, int samples);

// A column of the timing tables: CSV name, the row's value, the paper's value (nullptr: none).
struct TimingColumn {
  const char* name;
  double TimingRow::*value;
  double PaperTimingRow::*paper;
};
const std::vector<TimingColumn>& timingColumns();

// "scene," then every column, then "paper_<name>" for those the paper has; empty cells for NaN.
std::string timingCsv(const std::vector<TimingRow>& rows);
// The rows of a timingCsv text (its paper_* columns ignored); throws qnsim::Error naming `what` and the
// line of a malformed one.
std::vector<TimingRow> parseTimingCsv(const std::string& text, const std::string& what);
// Two Markdown tables: Table I's columns with the paper's value in brackets beside ours (and the peak
// memory when measured), and where the time of a frame goes, phase by phase.
std::string timingMarkdown(const std::vector<TimingRow>& rows);

}  // namespace qnsim
