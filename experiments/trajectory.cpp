#include "experiments/trajectory.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/common/files.h"
#include "core/scene/catalog.h"
#include "qnsim/error.h"
#include "plot/method_style.h"

namespace qnsim {
namespace {

void writeCsv(const std::filesystem::path& path, const TrajectorySetup& setup, const std::vector<TrajectoryResult>& results) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "method,frame,time_s,frame_ms,min_det_f,inverted,rolled_back";
  for (const TrajectoryQuantity& q : setup.quantities) csv << ',' << q.column;
  csv << '\n';
  for (const TrajectoryResult& r : results)
    for (size_t k = 0; k < r.frames.size(); ++k) {
      const FrameRecord& f = r.frames[k];
      csv << r.method.label << ',' << f.frame << ',' << f.time << ',' << f.frame_ms << ',' << f.min_det_f << ',' << f.inverted << ','
          << int(f.rolled_back);
      for (const std::vector<double>& values : r.values) csv << ',' << values[k];
      csv << '\n';
    }
  writeFileBytes(path, csv.str());
}

plot::PlotSpec quantityPlot(const std::vector<TrajectoryResult>& results, const TrajectoryQuantity& quantity, size_t q) {
  plot::PlotSpec p{quantity.title + " per frame", "frame", quantity.title, {}, {}, {}, true};
  for (size_t m = 0; m < results.size(); ++m) {
    plot::Series s = plot::methodSeries(results[m].method.label, static_cast<int>(m));
    for (size_t k = 0; k < results[m].frames.size(); ++k) {
      const double y = results[m].values[q][k];
      if (quantity.log_scale && !(y > 0)) continue;  // a log axis cannot show zero
      s.x.push_back(results[m].frames[k].frame), s.y.push_back(y);
    }
    p.series.push_back(std::move(s));
  }
  p.x = plot::fitAxis(p.series, false, false);
  p.y = plot::fitAxis(p.series, true, quantity.log_scale);
  if (!quantity.log_scale) plot::include(p.y, 0.0);
  // An explosion spans many decades; the axis ends 6 decades above the first method's largest value,
  // so the stable curves keep their shape and the blow-up leaves through the top.
  if (quantity.log_scale && !p.series.empty() && !p.series[0].y.empty() && p.y.hi / p.y.lo > 1e12) {
    const double first = *std::max_element(p.series[0].y.begin(), p.series[0].y.end());
    p.y.hi = std::max(std::min(p.y.hi, std::pow(10.0, std::ceil(std::log10(first)) + 6)), p.y.lo * 10);
  }
  return p;
}

void keepSnapshot(const TrajectorySetup& setup, const Simulation& sim, int frame, TrajectoryResult& r) {
  if (std::find(setup.snapshots.begin(), setup.snapshots.end(), frame) == setup.snapshots.end()) return;
  Snapshot s{frame, sim.positions(), {}, sim.colliders()};
  for (const Body& body : sim.model().bodies) s.triangles.insert(s.triangles.end(), body.surface.data(), body.surface.data() + body.surface.size());
  r.snapshots.push_back(std::move(s));
}

void record(const TrajectorySetup& setup, const Simulation& sim, TrajectoryResult& r) {
  r.frames.push_back(sim.lastFrame());
  for (size_t q = 0; q < setup.quantities.size(); ++q) r.values[q].push_back(setup.quantities[q].value(sim));
}

}  // namespace

TrajectoryQuantity kineticEnergy() {
  return {"kinetic_energy", "Kinetic energy (J)", true, [](const Simulation& s) { return s.lastFrame().kinetic_energy; }};
}

TrajectoryQuantity elasticEnergy() {
  return {"elastic_energy", "Elastic energy (J)", true, [](const Simulation& s) { return s.lastFrame().elastic_energy; }};
}

std::vector<TrajectoryResult> simulateTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options) {
  const Scene scene = loadScene(catalogScenePath(setup.scene));
  const int frames = options.quick ? setup.quick_frames : setup.frames;
  const int total = frames * static_cast<int>(setup.methods.size());
  std::vector<TrajectoryResult> results;
  for (const Method& method : setup.methods) {
    Scene own = scene;
    own.settings = applyMethod(scene.settings, method);
    if (setup.edit_scene) setup.edit_scene(method, own);
    Simulation sim(own);
    if (setup.start) setup.start(sim);
    TrajectoryResult r{method, {}, std::vector<std::vector<double>>(setup.quantities.size()), {}, {}};
    if (setup.include_start) record(setup, sim, r);
    keepSnapshot(setup, sim, 0, r);
    for (int f = 0; f < frames; ++f) {
      if (options.progress) options.progress(static_cast<int>(results.size()) * frames + f, total, setup.name + ": " + method.label);
      try {
        sim.step();
      } catch (const Error& e) {
        r.stopped = "frame " + std::to_string(f + 1) + ": " + e.what();
        break;
      }
      record(setup, sim, r);
      keepSnapshot(setup, sim, f + 1, r);
    }
    results.push_back(std::move(r));
  }

  if (options.progress) options.progress(total, total, setup.name + ": done");
  return results;
}

ExperimentReport runTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options, const SummarizeTrajectories& summarize) {
  const std::vector<TrajectoryResult> results = simulateTrajectories(setup, options);
  return writeTrajectories(setup, options, results, summarize(results));
}

ExperimentReport writeTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options, const std::vector<TrajectoryResult>& results,
                                   const std::string& summary) {
  std::filesystem::create_directories(options.out);
  const std::filesystem::path base = options.out / setup.name;
  ExperimentReport report{setup.name, setup.title, setup.paper, summary, {}};
  writeCsv(base.string() + ".csv", setup, results);
  std::vector<plot::PlotSpec> panels;
  if (setup.panels) panels = setup.panels(results);
  for (size_t q = 0; q < setup.quantities.size() && !setup.panels; ++q) panels.push_back(quantityPlot(results, setup.quantities[q], q));
  const std::string heading = setup.title + " (" + setup.scene + ")";
  writeFigure(base, panels, heading, report);
  return report;
}

}  // namespace qnsim
