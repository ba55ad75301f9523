// qnsim run SCENE_OR_MESH: simulates headless and writes per-frame and per-iteration telemetry.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <numeric>

#include "app/cli/commands.h"
#include "app/cli/progress.h"
#include "app/cli/tetgen_flags.h"
#include "core/common/files.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/quality.h"
#include "core/scene/bare_mesh_scene.h"
#include "core/scene/catalog.h"
#include "qnsim/error.h"
#include "qnsim/export.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"

namespace qnsim::cli {
namespace {

struct RunOptions {
  std::string scene;
  int frames = -1;  // -1: the scene's
  std::vector<std::string> overrides;
  std::string save_scene;
  std::string frame_csv, iter_csv;
  bool reference = false;
  bool check_intersections = false;
  int threads = -1;
  bool quiet = false;
  std::string export_folder, export_format = "obj";
  int export_every = 1;
  TetgenOptions tetgen;
  bool tetgen_given = false;  // any tetgen flag on the command line
};

std::string methodName(const Settings& s) { return std::get<std::string>(findParameter("solver.method").get(s)); }

struct Summary {
  double total_ms = 0;
  PhaseTimes times;
  long iterations = 0, trials = 0;
  int rollbacks = 0;
  std::vector<double> final_errors;
  int intersecting_frames = 0, most_intersections = 0, first_intersecting = 0;
};

std::string settingText(const Settings& settings, std::string_view key) {
  const SettingParameter& p = findParameter(key);
  return formatParameter(p, p.get(settings));
}

void printSummary(const Simulation& sim, const Summary& s, int frames) {
  const Model& m = sim.model();
  const FrameRecord& last = sim.lastFrame();
  std::printf("scene          %s (%d vertices, %d tets, %d springs)\n", sim.scene().name.c_str(), m.vertexCount(), m.tets.size(),
              m.springs.size());
  std::printf("solver         %s, %d iterations/frame, L-BFGS window %d, line search %s\n", methodName(sim.settings()).c_str(),
              sim.settings().solver.iterations, sim.settings().solver.lbfgs_window,
              settingText(sim.settings(), "solver.line_search").c_str());
  std::printf("frames         %d, %.3f ms/frame on average\n", frames, s.total_ms / std::max(frames, 1));
  const double n = std::max(frames, 1);
  std::printf("phases         per frame: %.3f ms derivatives, %.3f ms linear solves, %.3f ms L-BFGS loops, %.3f ms line search "
              "(objective + gradient), %.3f ms contacts, %.3f ms constraint sweeps\n",
              s.times.gradient / n, s.times.linear_solve / n, s.times.lbfgs / n, s.times.line_search / n, s.times.contacts / n,
              s.times.projection / n);
  std::printf("line search    %.3f trials per iteration (%ld trials, %ld iterations)\n", double(s.trials) / std::max(s.iterations, 1L),
              s.trials, s.iterations);
  std::printf("final state    g %.6g, elastic %.6g, kinetic %.6g, min det F %.4g, %d inverted, %d contacts\n", last.g,
              last.elastic_energy, last.kinetic_energy, last.min_det_f, last.inverted, last.active_contacts);
  std::printf("factorizations %ld\n", last.factorizations);
  if (last.intersections >= 0) {
    if (s.intersecting_frames == 0)
      std::printf("intersections  none: no surface crosses itself, another or a collider at the end of any frame (exact check)\n");
    else
      std::printf("intersections  in %d of %d frames, the first at frame %d, at most %d (crossing triangle pairs + edges + vertices "
                  "inside colliders; exact check)\n",
                  s.intersecting_frames, frames, s.first_intersecting, s.most_intersections);
  }
  if (s.rollbacks > 0) std::printf("rolled back    %d frames (their solves diverged; see the warnings above)\n", s.rollbacks);
  if (!s.final_errors.empty()) {
    std::vector<double> e = s.final_errors;
    std::sort(e.begin(), e.end());
    std::printf("rel. error     after the last iteration: median %.3g, mean %.3g, max %.3g (Eq. 12, %zu frames)\n", e[e.size() / 2],
                std::accumulate(e.begin(), e.end(), 0.0) / e.size(), e.back(), e.size());
  }
}

// A scene file, or a mesh file as its default scene: a surface tetrahedralised with the tetgen flags, its
// quality reported before anything is simulated.
Scene openScene(const RunOptions& options) {
  const std::filesystem::path path = resolveScenePath(options.scene);
  if (!isMeshFile(path)) {
    if (options.tetgen_given)
      throw error(path.string(), ": --tets, --edge, --max-volume, --quality and --min-dihedral tetrahedralise a surface file; in a "
                                 "scene, set a body's \"tetgen\" object instead (docs/scene_format.md)");
    return loadScene(path, options.overrides);
  }
  Scene scene = sceneForBareMesh(path, options.overrides, options.tetgen);
  if (!options.quiet) std::fputs(describeQuality(meshQuality(scene.bodies.front().mesh)).c_str(), stdout);
  return scene;
}

int run(const RunOptions& options) {
  if (options.frames == 0 && options.save_scene.empty()) throw error("--frames 0 simulates nothing; it goes with --save-scene");
  Scene scene = openScene(options);
  if (!options.save_scene.empty()) {
    writeScene(scene, options.save_scene);
    if (!options.quiet) std::printf("saved the scene with its overrides as %s\n", options.save_scene.c_str());
    if (options.frames == 0) return 0;
  }
  if (options.threads >= 0) setParameter(scene.settings, "threads", std::to_string(options.threads));
  const int frames = options.frames >= 0 ? options.frames : scene.frames;
  Simulation sim(std::move(scene));
  sim.setReferenceEnabled(options.reference);
  sim.setIntersectionCheck(options.check_intersections);
  // Written beside their targets as .partial files and renamed at the end: a run that is killed or
  // fails leaves the targets as they were.
  std::optional<PartialFile> frame_csv, iter_csv;
  if (!options.frame_csv.empty()) writeFrameCsvHeader(frame_csv.emplace(options.frame_csv).stream());
  if (!options.iter_csv.empty()) writeIterationCsvHeader(iter_csv.emplace(options.iter_csv).stream());

  // Frame 0 (the initial state) and every export_every-th frame after it, each file written as the run goes.
  std::optional<Exporter> exporter;
  if (!options.export_folder.empty()) {
    exporter.emplace(options.export_folder, exportFormat(options.export_format), options.export_every);
    exporter->add(sim);
  }

  ProgressBar progress(frames, !options.quiet);
  Summary summary;
  for (int f = 1; f <= frames; ++f) {
    sim.step();
    const FrameRecord& r = sim.lastFrame();
    if (r.rolled_back) {
      ++summary.rollbacks;
      progress.finish();
      std::fprintf(stderr, "warning: %s\n", sim.lastWarning().c_str());
    }
    summary.total_ms += r.frame_ms;
    summary.times += r.times;
    summary.iterations += r.iterations;
    summary.trials += r.ls_trials;
    if (r.intersections > 0) {
      summary.most_intersections = std::max(summary.most_intersections, r.intersections);
      if (summary.intersecting_frames++ == 0) summary.first_intersecting = r.frame;
    }
    if (options.reference && !sim.lastRelativeErrors().empty()) summary.final_errors.push_back(sim.lastRelativeErrors().back());
    if (frame_csv) writeFrameCsvRow(frame_csv->stream(), r);
    if (iter_csv) writeIterationCsvRows(iter_csv->stream(), r.frame, sim.lastSolve().iterations, sim.lastRelativeErrors());
    if (exporter) exporter->add(sim);
    char detail[64];
    std::snprintf(detail, sizeof detail, "%.1f ms/frame", summary.total_ms / f);
    progress.update(f, detail);
  }
  progress.finish();
  if (frame_csv) frame_csv->commit();
  if (iter_csv) iter_csv->commit();
  if (!options.quiet) printSummary(sim, summary, frames);
  if (exporter) {
    const size_t files = exporter->finish().size();
    if (!exporter->warning().empty()) std::fprintf(stderr, "warning: %s\n", exporter->warning().c_str());
    if (!options.quiet)
      std::printf("exported       %d frames as %s to %s (%zu files)\n", exporter->exportedFrames(),
                  std::string(exportFormatName(exporter->format())).c_str(), exporter->folder().string().c_str(), files);
  }
  return 0;
}

}  // namespace

Command addRunCommand(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand("run", "Simulate a scene (or a bare mesh dropped on a ground plane) without a window.");
  cmd->add_option("scene", options->scene, "Scene file (.json) or tet/surface mesh (.mesh .node .ele .msh .obj .off .stl)")->required();
  cmd->add_option("--frames", options->frames, "Frames to simulate (default: the scene's \"frames\"; 0 with --save-scene: only save)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--set", options->overrides, "Override a parameter: KEY=VALUE (see `qnsim params`), or material.NAME.PARAMETER=VALUE")
      ->allow_extra_args(false);
  cmd->add_option("--save-scene", options->save_scene,
                  "Write the scene, with the --set overrides applied, as a scene file (before simulating; docs/scene_format.md)");
  cmd->add_option("--frame-csv", options->frame_csv, "Write one telemetry row per frame to this CSV file");
  cmd->add_option("--iter-csv", options->iter_csv, "Write one row per solver iteration to this CSV file");
  cmd->add_flag("--reference", options->reference,
                "Solve every frame exactly (Newton to convergence) and report the relative error of Eq. 12 per iteration");
  cmd->add_flag("--check-intersections", options->check_intersections,
                "Check every frame's end exactly for surfaces crossing themselves, each other or a collider (frame CSV column "
                "intersections; a summary line)");
  cmd->add_option("--threads", options->threads, "Worker threads (0 = all cores; results do not depend on it)")->check(CLI::Range(0, 256));
  cmd->add_option("--export", options->export_folder,
                  "Export the motion into this folder (made if missing): frame 0 and every --every-th frame, as --format says");
  cmd->add_option("--format", options->export_format,
                  "Export format: obj (a file per frame: the drawn surfaces with normals and UVs), vtu (a file per frame with "
                  "the tets and their fields, and frames.pvd for ParaView), glb (animation.glb: glTF 2.0 with the motion as morph targets)")
      ->check(CLI::IsMember({"obj", "vtu", "glb"}));
  cmd->add_option("--every", options->export_every, "Export every N-th frame (default 1)")->check(CLI::PositiveNumber);
  cmd->add_flag("-q,--quiet", options->quiet, "No progress bar and no summary");
  const TetgenFlags tetgen = addTetgenFlags(cmd, options->tetgen);
  return [options, tetgen] {
    options->tetgen_given = given(tetgen);
    return run(*options);
  };
}

}  // namespace qnsim::cli
