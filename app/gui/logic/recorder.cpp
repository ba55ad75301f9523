#include "app/gui/logic/recorder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/common/files.h"
#include "plot/svg.h"
#include "qnsim/error.h"
#include "view/colormap.h"

namespace qnsim::gui {

void ConvergenceRecorder::start(const std::filesystem::path& base, int frames, const std::string& title) {
  base_ = base;
  title_ = title;
  target_ = std::max(frames, 1);
  frames_.clear();
  active_ = true;
}

std::string ConvergenceRecorder::add(RecordedFrame frame) {
  if (!active_) return "";
  frames_.push_back(std::move(frame));
  return recorded() >= target_ ? finish() : "";
}

std::string ConvergenceRecorder::finish() {
  active_ = false;
  if (frames_.empty()) return "";
  std::filesystem::path csv = base_, svg = base_;
  csv += ".csv";
  svg += ".svg";
  std::ostringstream csv_text;
  writeConvergenceCsv(csv_text, frames_);
  writeFileBytes(csv, csv_text.str());
  const std::string heading =
      title_ + ": frames " + std::to_string(frames_.front().frame) + " to " + std::to_string(frames_.back().frame);
  writeFileBytes(svg, svgPlots(convergencePanels(frames_), heading));
  frames_.clear();
  return csv.string() + " and " + svg.string();
}

void writeConvergenceCsv(std::ostream& out, const std::vector<RecordedFrame>& frames) {
  out << "frame,iteration,g,grad_norm,alpha,ls_trials,time_ms,rel_error\n";
  out.precision(17);
  for (const RecordedFrame& f : frames)
    for (size_t k = 0; k < f.iterations.size(); ++k) {
      const IterationRecord& it = f.iterations[k];
      out << f.frame << ',' << it.iteration << ',' << it.g << ',' << it.grad_norm << ',' << it.alpha << ',' << it.ls_trials << ','
          << it.time_ms << ',';
      if (k < f.rel_error.size()) out << f.rel_error[k];
      out << '\n';
    }
}

std::vector<PlotSpec> convergencePanels(const std::vector<RecordedFrame>& frames) {
  PlotSpec gradient{"Gradient norm per iteration", "iteration", "|grad g| / |grad g(x_0)|", {}, {}, {}, true};
  const bool have_reference = !frames.empty() && !frames.front().rel_error.empty();
  PlotSpec error{have_reference ? "Relative error (Eq. 12) per iteration" : "Objective above the frame's best, per iteration",
                 "iteration", have_reference ? "(g_k - g*) / (g_0 - g*)" : "g_k - min_k g_k", {}, {}, {}, true};
  for (size_t i = 0; i < frames.size(); ++i) {
    const RecordedFrame& f = frames[i];
    const float t = frames.size() > 1 ? float(i) / float(frames.size() - 1) : 0.0f;
    const view::Vec3f c = view::sequentialColor(0.1f + 0.85f * t);
    const bool labelled = frames.size() <= 6 || i == 0 || i + 1 == frames.size();
    Series gs{labelled ? "frame " + std::to_string(f.frame) : "", {c.x(), c.y(), c.z()}, {}, {}};
    Series es = gs;
    double g_min = std::numeric_limits<double>::infinity();
    for (const IterationRecord& it : f.iterations) g_min = std::min(g_min, it.g);
    for (size_t k = 0; k < f.iterations.size(); ++k) {
      const IterationRecord& it = f.iterations[k];
      gs.x.push_back(it.iteration);
      gs.y.push_back(f.iterations.front().grad_norm > 0 ? it.grad_norm / f.iterations.front().grad_norm : 0.0);
      es.x.push_back(it.iteration);
      es.y.push_back(have_reference ? (k < f.rel_error.size() ? f.rel_error[k] : NAN) : it.g - g_min);
    }
    gradient.series.push_back(std::move(gs));
    error.series.push_back(std::move(es));
  }
  for (PlotSpec* p : {&gradient, &error}) {
    p->x = fitAxis(p->series, false, false);
    p->x.lo = 0;
    p->y = fitAxis(p->series, true, true);
  }
  return {gradient, error};
}

void writeSurfaceObj(const std::filesystem::path& path, const view::SurfaceView& view, const VecX& x) {
  std::ostringstream out;
  out << "# qnsim surface\n";
  out.precision(9);
  std::vector<float> positions;  // strands' tubes are drawn around their vertices
  view::gatherPositions(view, x, positions);
  for (size_t i = 0; i + 2 < positions.size(); i += 3) out << "v " << positions[i] << ' ' << positions[i + 1] << ' ' << positions[i + 2] << '\n';
  for (size_t i = 0; i + 2 < view.local.size(); i += 3)
    out << "f " << view.local[i] + 1 << ' ' << view.local[i + 1] + 1 << ' ' << view.local[i + 2] + 1 << '\n';
  writeFileBytes(path, out.str());
}

}  // namespace qnsim::gui
