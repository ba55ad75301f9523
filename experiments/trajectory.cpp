#include "experiments/trajectory.h"

#include <algorithm>
#include <sstream>

#include "core/common/error.h"
#include "core/common/files.h"
#include "core/scene/catalog.h"
#include "core/sim/simulation.h"

namespace qnsim {
namespace {

void writeCsv(const std::filesystem::path& path, const std::vector<TrajectoryResult>& results) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "method,frame,time_s,frame_ms,kinetic_energy,elastic_energy,min_det_f,rolled_back\n";
  for (const TrajectoryResult& r : results)
    for (const FrameRecord& f : r.frames)
      csv << r.method.label << ',' << f.frame << ',' << f.time << ',' << f.frame_ms << ',' << f.kinetic_energy << ',' << f.elastic_energy
          << ',' << f.min_det_f << ',' << int(f.rolled_back) << '\n';
  writeFileBytes(path, csv.str());
}

plot::PlotSpec energyPlot(const std::vector<TrajectoryResult>& results, const std::string& what, double (*value)(const FrameRecord&)) {
  plot::PlotSpec p{what + " per frame", "frame", what + " (J)", {}, {}, {}, true};
  for (size_t m = 0; m < results.size(); ++m) {
    plot::Series s{results[m].method.label, plot::seriesColor(static_cast<int>(m)), {}, {}};
    for (const FrameRecord& f : results[m].frames) s.x.push_back(f.frame), s.y.push_back(value(f));
    p.series.push_back(std::move(s));
  }
  p.x = plot::fitAxis(p.series, false, false);
  p.y = plot::fitAxis(p.series, true, true);
  return p;
}

}  // namespace

std::vector<TrajectoryResult> simulateTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options) {
  const Scene scene = loadScene(catalogScenePath(setup.scene));
  const int frames = options.quick ? setup.quick_frames : setup.frames;
  const int total = frames * static_cast<int>(setup.methods.size());
  std::vector<TrajectoryResult> results;
  for (const MethodSpec& method : setup.methods) {
    Scene own = scene;
    own.settings = applyMethod(scene.settings, method);
    if (setup.edit_scene) setup.edit_scene(method, own);
    Simulation sim(own);
    if (setup.start) setup.start(sim);
    TrajectoryResult r{method, {}, {}};
    for (int f = 0; f < frames; ++f) {
      if (options.progress) options.progress(static_cast<int>(results.size()) * frames + f, total, setup.name + ": " + method.label);
      try {
        sim.step();
      } catch (const Error& e) {
        r.stopped = "frame " + std::to_string(f + 1) + ": " + e.what();
        break;
      }
      r.frames.push_back(sim.lastFrame());
    }
    results.push_back(std::move(r));
  }
  if (options.progress) options.progress(total, total, setup.name + ": done");
  return results;
}

ExperimentReport runTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options, const SummarizeTrajectories& summarize) {
  const std::vector<TrajectoryResult> results = simulateTrajectories(setup, options);
  std::filesystem::create_directories(options.out);
  const std::filesystem::path base = options.out / setup.name;
  ExperimentReport report{setup.name, setup.title, setup.paper, summarize(results), {}};
  writeCsv(base.string() + ".csv", results);
  const std::vector<plot::PlotSpec> panels =
      setup.panels ? setup.panels(results)
                   : std::vector<plot::PlotSpec>{energyPlot(results, "Kinetic energy", [](const FrameRecord& f) { return f.kinetic_energy; }),
                                                 energyPlot(results, "Elastic energy", [](const FrameRecord& f) { return f.elastic_energy; })};
  writeFigure(base, panels, setup.title + " (" + setup.scene + ")", report);
  return report;
}

}  // namespace qnsim
