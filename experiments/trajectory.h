#pragma once
// The figures over time (10, 11, 12, 18): each method runs a catalog scene from its start for a number
// of frames, and a few quantities of every frame (energies, inverted tets, distance to the rest shape)
// show whether it stays bounded, explodes, decays or recovers.
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "qnsim/scene.h"
#include "qnsim/simulation.h"

namespace qnsim {

// One quantity measured after every frame: a CSV column and a panel of the figure.
struct TrajectoryQuantity {
  std::string column;  // CSV column name, e.g. "kinetic_energy"
  std::string title;   // panel title and y label, e.g. "Kinetic energy (J)"
  bool log_scale = true;
  std::function<double(const Simulation&)> value;
};

// The energies of the last frame, the default quantities.
TrajectoryQuantity kineticEnergy();
TrajectoryQuantity elasticEnergy();

struct TrajectoryResult;

struct TrajectorySetup {
  std::string name, title, paper;
  std::string scene;
  int frames = 150;       // per method
  int quick_frames = 50;  // per method in a quick run
  std::vector<Method> methods;
  std::vector<TrajectoryQuantity> quantities = {kineticEnergy(), elasticEnergy()};
  bool include_start = false;  // also measure the initial state, as frame 0 (a recovery starts somewhere)
  // Optional: what a method changes in the scene besides its settings (a material swap), and in the
  // simulation before its first frame (a start other than the scene's initial state).
  std::function<void(const Method&, Scene&)> edit_scene = {};
  std::function<void(Simulation&)> start = {};
  // Optional: the figure's panels instead of one per quantity (the CSV keeps the quantities).
  std::function<std::vector<plot::PlotSpec>(const std::vector<TrajectoryResult>&)> panels = {};
  // Frames after which each method's positions and colliders are kept for a picture (0: the start).
  std::vector<int> snapshots = {};
};

// The state of a run after a frame, to draw.
struct Snapshot {
  int frame = 0;
  VecX positions;
  std::vector<int> triangles;       // the bodies' surfaces, three vertex indices each
  std::vector<Collider> colliders;  // posed at that frame
};

struct TrajectoryResult {
  Method method;
  std::vector<FrameRecord> frames;
  std::vector<std::vector<double>> values;  // values[q][k]: quantity q after frames[k]
  std::string stopped;  // why the run ended early (a solve that threw on an exploded state), or empty
  std::vector<Snapshot> snapshots;  // at the setup's snapshot frames the run reached
};

using SummarizeTrajectories = std::function<std::string(const std::vector<TrajectoryResult>&)>;

// Runs every method (quick: quick_frames each). A method whose step throws qnsim::Error (an exploded
// state no longer factors) ends its run there.
std::vector<TrajectoryResult> simulateTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options);

// simulateTrajectories, then writes NAME.csv (method,frame,time_s,frame_ms,min_det_f,inverted,rolled_back and one column per
// quantity), NAME.svg and NAME.png (one panel per quantity, against the frame, or the setup's panels).
ExperimentReport runTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options, const SummarizeTrajectories& summarize);
// Draws the runs' snapshots at `frames` (a row per frame and a column per run; one run's frames side by
// side) from the scene camera `view` into the PNG at `path`, listed in the report (pictures.cpp).
void writeSnapshotPicture(const std::filesystem::path& path, const std::string& title, const std::vector<TrajectoryResult>& results,
                          const std::vector<int>& frames, const CameraDesc& view, ExperimentReport& report);
// The files of runTrajectories for results measured otherwise (methods run in lockstep, Fig. 12).
ExperimentReport writeTrajectories(const TrajectorySetup& setup, const ExperimentOptions& options, const std::vector<TrajectoryResult>& results,
                                   const std::string& summary);

}  // namespace qnsim
