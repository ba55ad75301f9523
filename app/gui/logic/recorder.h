#pragma once
// Recording from the sandbox: convergence over a range of frames (a CSV of every iteration and an SVG
// picture of the curves), and OBJ sequences of the deformed surfaces.
#include <filesystem>
#include <string>
#include <vector>

#include "core/solver/frame_solver.h"
#include "plot/axes.h"
#include "view/surface_view.h"

namespace qnsim::gui {

using namespace qnsim::plot;  // the sandbox draws the shared plot descriptions (plot/axes.h)

struct RecordedFrame {
  int frame = 0;
  std::vector<IterationRecord> iterations;
  std::vector<double> rel_error;  // Eq. 12 per iterate, empty without a reference solve
};

class ConvergenceRecorder {
 public:
  // Records the next `frames` frames into `base`.csv and `base`.svg.
  void start(const std::filesystem::path& base, int frames, const std::string& title);
  bool active() const { return active_; }
  int recorded() const { return static_cast<int>(frames_.size()); }
  int target() const { return target_; }
  // Adds a frame; writes the files and stops after the last one. Returns the written paths then.
  std::string add(RecordedFrame frame);
  // Writes what has been recorded so far and stops. Returns the written paths ("" when nothing was).
  std::string finish();

 private:
  std::filesystem::path base_;
  std::string title_;
  int target_ = 0;
  bool active_ = false;
  std::vector<RecordedFrame> frames_;
};

void writeConvergenceCsv(std::ostream& out, const std::vector<RecordedFrame>& frames);
// Panels: |grad g| / |grad g_0| per iteration, and the relative error (or g - min g when there is no
// reference), one curve per frame coloured from the first frame to the last.
std::vector<PlotSpec> convergencePanels(const std::vector<RecordedFrame>& frames);

// Writes the drawn surfaces of `view` at positions x as an OBJ (vertices in drawing order).
void writeSurfaceObj(const std::filesystem::path& path, const view::SurfaceView& view, const VecX& x);

}  // namespace qnsim::gui
