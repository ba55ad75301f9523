// What every experiment shares: methods as registry edits.
#include "experiments/experiment.h"

#include "core/common/files.h"
#include "core/params/parameters.h"
#include "plot/png.h"
#include "plot/svg.h"

namespace qnsim {

Settings applyMethod(const Settings& base, const MethodSpec& method) {
  Settings s = base;
  for (const std::string& o : method.overrides) {
    const auto [key, value] = splitAssignment(o);
    setParameter(s, key, value);
  }
  return s;
}

void writeFigure(const std::filesystem::path& base, const std::vector<plot::PlotSpec>& panels, const std::string& heading,
                 ExperimentReport& report) {
  writeFileBytes(base.string() + ".svg", plot::svgPlots(panels, heading));
  plot::writePng(plot::rasterizePlots(panels, heading), base.string() + ".png");
  for (const char* ext : {".csv", ".svg", ".png"}) report.files.push_back(base.string() + ext);
}

}  // namespace qnsim
