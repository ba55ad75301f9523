// What every experiment shares: its figure files.
#include "experiments/experiment.h"

#include "core/common/files.h"
#include "plot/png.h"
#include "plot/svg.h"

namespace qnsim {

void startAt(Simulation& sim, const VecX& x) {
  SimState s = sim.state();
  s.x = s.x_previous = x;
  s.v = s.v_previous = VecX::Zero(x.size());
  s.rotations.clear();
  sim.apply(LoadState{std::move(s)});
}

void writeFigure(const std::filesystem::path& base, const std::vector<plot::PlotSpec>& panels, const std::string& heading,
                 ExperimentReport& report, const plot::FigureStyle& style) {
  writeFileBytes(base.string() + ".svg", plot::svgPlots(panels, heading, 480, 300, style));
  plot::writePng(plot::rasterizePlots(panels, heading, 480, 300, 3.0, style), base.string() + ".png");
  for (const char* ext : {".csv", ".svg", ".png"}) report.files.push_back(base.string() + ext);
}

}  // namespace qnsim
