#pragma once
// The stability figures (10): each method runs a catalog scene from its start for a number of frames,
// and the kinetic and elastic energy of every frame show whether it stays bounded or explodes.
#include <string>
#include <vector>

#include "core/sim/telemetry.h"
#include "experiments/experiment.h"

namespace qnsim {

struct TrajectorySetup {
  std::string name, title, paper;
  std::string scene;
  int frames = 150;       // per method
  int quick_frames = 50;  // per method in a quick run
  std::vector<MethodSpec> methods;
};

struct TrajectoryResult {
  MethodSpec method;
  std::vector<FrameRecord> frames;
  std::string stopped;  // why the run ended early (a solve that threw on an exploded state), or empty
};

using SummarizeTrajectories = std::function<std::string(const std::vector<TrajectoryResult>&)>;

// A method whose step throws qnsim::Error (an exploded state no longer factors) ends its run there.
// Writes NAME.csv (method,frame,time_s,frame_ms,kinetic_energy,elastic_energy,min_det_f,rolled_back),
// NAME.svg and NAME.png (kinetic and elastic energy per frame, log scale).
ExperimentReport runTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options, const SummarizeTrajectories& summarize);

}  // namespace qnsim
