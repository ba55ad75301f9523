#pragma once
// qnsim_bench --catalog: Table I for every scene of the catalog and of scenes/benchmark/, each measured
// in a process of its own (so that its peak memory is its own and a crash costs one row), the scaling
// curve of the twisting bar, and the machine's description, as a Markdown report and CSV files.
#include <filesystem>
#include <string>
#include <vector>

namespace qnsim::bench {

struct CatalogOptions {
  std::vector<std::string> scenes;  // names in scenes/ or scenes/benchmark/; empty: every one of both
  int threads = 0;                  // 0: the default (QNSIM_THREADS if set, else all cores)
  int frames = 0;                   // per scene; 0: the scene's own, at most 300
  int samples = 4;                  // frames where Newton and the relative errors are measured
  // Rounds of ours' timed trajectory: every scene runs in turn, round after round (Newton only in the
  // first), and each scene's times are those of its median round, so that a busy minute of a shared
  // machine touches one round of a scene rather than all of them.
  int rounds = 3;
  int scaling = 5;                  // bar sizes of the scaling curve, smallest first (0: none)
  std::filesystem::path out = "bench_out";
  std::string command;  // as typed, quoted in the report
};

// Runs everything and writes OUT/catalog.md (also printed), catalog.csv, scaling.csv, scaling.svg and
// scaling.png; the child processes' rows and logs go to OUT/rows (NAME.csv, then NAME.round2.csv ...),
// the generated bar scenes to OUT/scenes.
// `program` is this program, run once per scene as `program --scene PATH --row-out FILE ...`. Returns 0,
// or 1 when a scene failed (the report says which and why). Throws qnsim::Error for an unknown scene.
int runCatalog(const CatalogOptions& options, const std::filesystem::path& program);

// What each child process does: the scene's row of the tables (experiments/timing.h), with the peak
// memory after ours' trajectory and at the end, written as CSV to `row_out`. frames 0: the scene's own,
// at most 300.
void measureRow(const std::filesystem::path& scene, int frames, int samples, int threads, const std::filesystem::path& row_out);

}  // namespace qnsim::bench
