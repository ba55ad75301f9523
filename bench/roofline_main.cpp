// qnsim_roofline: this processor's limits (memory bandwidth at several working-set sizes, peak FMA
// rate) and, for each scene given, where each phase of its frames stands against them
// (docs/benchmarks.md, "The roofline").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "bench/machine.h"
#include "bench/roofline.h"
#include "qnsim/error.h"

int main(int argc, char** argv) {
  CLI::App app{"Measures this processor's memory bandwidth and peak FMA rate, and each phase of the scenes' frames against them."};
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::string> scenes;
  int frames = 0;
  std::string out;
  app.add_option("--threads", threads, "Threads for the probe and the scenes (default: all cores)")->check(CLI::PositiveNumber);
  app.add_option("--scene", scenes, "A scene file whose phases to place on the roofline (repeatable)")->check(CLI::ExistingFile);
  app.add_option("--frames", frames, "Frames of each scene (default: the scene's)")->check(CLI::NonNegativeNumber);
  app.add_option("--out", out, "Also write the Markdown report to this file");
  CLI11_PARSE(app, argc, argv);
  try {
    std::ostringstream md;
    md << "## qnsim_roofline\n\nMachine: " << qnsim::bench::describeMachine(threads) << ".  \nLoad average before: "
       << qnsim::bench::loadAverage() << ".\n\n";
    const qnsim::bench::Roofs roofs = qnsim::bench::measureRoofs(threads);
    md << qnsim::bench::roofsTable(roofs) << '\n';
    for (const std::string& scene : scenes)
      md << qnsim::bench::phaseTable(scene, qnsim::bench::scenePhases(scene, threads, frames), roofs) << '\n';
    md << "Load average after: " << qnsim::bench::loadAverage() << ".\n";
    std::fputs(md.str().c_str(), stdout);
    if (!out.empty()) std::ofstream(out) << md.str();
  } catch (const qnsim::Error& e) {
    std::fprintf(stderr, "qnsim_roofline: %s\n", e.what());
    return 1;
  }
  return 0;
}
