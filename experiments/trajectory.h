#pragma once
// The figures that run a scene over time (10, 11): each method runs a catalog scene from its start for
// a number of frames, and the energies of every frame show whether it stays bounded, explodes or decays.
#include <string>
#include <vector>

#include "core/scene/scene.h"
#include "core/sim/telemetry.h"
#include "experiments/experiment.h"

namespace qnsim {

class Simulation;
struct TrajectoryResult;

struct TrajectorySetup {
  std::string name, title, paper;
  std::string scene;
  int frames = 150;       // per method
  int quick_frames = 50;  // per method in a quick run
  std::vector<MethodSpec> methods;
  // Optional: what a method changes in the scene besides its settings (a material swap), and in the
  // simulation before its first frame (a start other than the scene's initial state).
  std::function<void(const MethodSpec&, Scene&)> edit_scene = {};
  std::function<void(Simulation&)> start = {};
  // Optional: the figure's panels; by default the kinetic and the elastic energy per frame (log scale).
  std::function<std::vector<plot::PlotSpec>(const std::vector<TrajectoryResult>&)> panels = {};
};

struct TrajectoryResult {
  MethodSpec method;
  std::vector<FrameRecord> frames;
  std::string stopped;  // why the run ended early (a solve that threw on an exploded state), or empty
};

using SummarizeTrajectories = std::function<std::string(const std::vector<TrajectoryResult>&)>;

// Runs every method (quick: quick_frames each). A method whose step throws qnsim::Error (an exploded
// state no longer factors) ends its run there.
std::vector<TrajectoryResult> simulateTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options);

// simulateTrajectories, then writes NAME.csv (method,frame,time_s,frame_ms,kinetic_energy,elastic_energy,
// min_det_f,rolled_back), NAME.svg and NAME.png (the setup's panels).
ExperimentReport runTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options, const SummarizeTrajectories& summarize);

}  // namespace qnsim
