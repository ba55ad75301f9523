#pragma once
// Runs a Simulation for the window, either on its own thread (the window stays responsive whatever a
// frame costs) or stepped by the caller (scripted runs and screenshots). The window never touches the
// Simulation: it sends Edits (qnsim/edit.h) and commands, applied in order between frames, and reads
// the latest Snapshot, which carries the settings and materials the panels show.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "app/gui/logic/fields.h"
#include "app/gui/logic/recorder.h"
#include "qnsim/export.h"
#include "qnsim/history.h"
#include "qnsim/simulation.h"
#include "view/surface_view.h"

namespace qnsim::gui {

// One line of the rolling history, per simulated frame.
struct FrameSummary {
  int frame = 0, iterations = 0, ls_trials = 0;
  double frame_ms = 0, mean_alpha = 0;
  double g0 = 0, g = 0, grad0 = 0, grad = 0;
  double rel_error = 0;  // Eq. 12 after the last iteration; NaN without a reference solve
  PhaseTimes times;
};

struct RunTotals {
  long frames = 0, iterations = 0, ls_trials = 0;
  double alpha_sum = 0, frame_ms = 0;
  PhaseTimes times;
};

struct CompareResult {
  int frame = 0;  // the frame that was solved (the one after the current state)
  std::vector<MethodTrace> traces;
};

// A material region as the Materials panel shows it.
struct RegionView {
  std::string name;
  bool solid = true;
  double stiffness = 0;  // k of Eq. 11
  std::shared_ptr<const Material> material;
};

struct Snapshot {
  int frame = 0;
  double time = 0;
  VecX x;
  // What to draw and pick: the same object until elements are removed or restored (tearing, cuts, reset).
  std::shared_ptr<const view::SurfaceView> surface;
  int removed = 0;  // elements removed so far (torn or cut)
  FrameRecord record;
  std::vector<IterationRecord> iterations;
  std::vector<double> rel_error;
  std::vector<FrameSummary> history;  // oldest first
  RunTotals totals;
  std::vector<int> attached;  // vertices held by attachment springs
  ColorMode field_mode = ColorMode::Region;
  std::vector<float> field;  // per vertex for field_mode
  bool playing = false, refactor_pending = false, recording = false;
  int recorded = 0, record_target = 0;
  std::shared_ptr<const CompareResult> compare;
  Settings settings;                // the simulation's
  std::vector<RegionView> regions;  // its materials
  std::vector<Collider> colliders;        // the scene's, as edited (at rest: without their keyframed motion)
  std::vector<Collider> posed_colliders;  // where they are at this frame's time (drawn)
  long edits_done = 0;              // edits applied so far (SimRunner::apply's numbers up to this one)
  std::vector<std::string> undo_list;  // the recorded edits, oldest first (EditHistory::descriptions)
  int undo_done = 0;                   // how many of them are done; the rest can be redone
  bool unsaved = false;                // edits done or undone since the scene was opened or saved
};

class SimRunner {
 public:
  static constexpr size_t kHistory = 600;

  SimRunner(std::unique_ptr<Simulation> simulation, bool threaded);
  ~SimRunner();
  SimRunner(const SimRunner&) = delete;
  SimRunner& operator=(const SimRunner&) = delete;

  std::shared_ptr<const Snapshot> snapshot() const;
  // Messages for the user (saved files, errors), oldest first; `since` is the count already seen.
  std::vector<std::string> messages(size_t since) const;
  size_t messageCount() const;
  bool busy() const { return busy_; }  // a compare solve is running

  void setPlaying(bool playing);
  void stepOnce();
  void setRealTime(bool real_time);
  // Queues an edit for Simulation::apply between frames, recorded for undo (qnsim/history.h), and returns
  // its number: the snapshot's edits_done reaches it once it is applied. A rejected edit is reported as a
  // message. `continuing`: part of a gesture (a slider being dragged), one step to undo with the edit
  // before it when that changed the same thing (EditHistory::apply).
  long apply(Edit edit, bool continuing = false);
  // Undoes the newest recorded edit, or redoes the newest undone one.
  void undo();
  void redo();
  // Writes the scene with every edit (Simulation::savedScene) as a scene file and waits for it: true when
  // it was written (the snapshot is then no longer unsaved); a failure is reported as a message.
  bool saveScene(std::filesystem::path path, bool removed_elements = false);
  // Reset (an edit: back to the start, the scene's edits kept) that also clears the run's history and totals.
  void reset();
  // The mouse drag (a SetDrag edit): only the newest one is applied before each frame.
  void setDrag(std::vector<Drag> drag);
  void setColorMode(ColorMode mode);
  void setReference(bool enabled);
  // Solves the next frame with each method (Simulation::compareNextFrame) into the snapshot's compare.
  void compare(std::vector<Method> methods);
  void saveState(std::filesystem::path path);
  void loadState(std::filesystem::path path);
  void startRecording(std::filesystem::path base, int frames);
  void stopRecording();
  // Exports every frame from now on into the folder as qnsim run --export does (obj, vtu or glb), or stops
  // (no folder) and writes what waits for the end (the .glb).
  void setExport(std::optional<std::filesystem::path> folder, ExportFormat format = ExportFormat::Obj);

  // Called on the simulation thread after each publish (the window wakes its event loop with it).
  void onPublish(std::function<void()> callback);

  // Caller-stepped mode: runs the queued commands, steps one frame if playing (or asked to), publishes.
  void pump();
  // Waits until every command posted so far has run (threaded mode; a no-op otherwise).
  void sync();

 private:
  using Command = std::function<void()>;
  void post(Command command);
  void threadMain();
  void runCommands();
  void stepFrame();
  void afterFrame();
  void publish();
  void followTopology();
  void say(std::string message);

  std::unique_ptr<Simulation> sim_;
  std::shared_ptr<const view::SurfaceView> surface_;  // of the Simulation's topology version surface_version_
  int surface_version_ = 0;
  const bool threaded_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Command> queue_;
  std::optional<SetDrag> pending_drag_;
  bool quit_ = false, playing_ = false, step_requested_ = false, real_time_ = true;
  long posted_ = 0, done_ = 0, edits_posted_ = 0, edits_done_ = 0;
  std::condition_variable done_changed_;
  std::atomic<bool> busy_{false};
  std::shared_ptr<const Snapshot> published_;
  std::function<void()> on_publish_;
  std::vector<std::string> messages_;

  // Owned by the simulation thread.
  std::deque<FrameSummary> history_;
  RunTotals totals_;
  ColorMode field_mode_ = ColorMode::Region;
  std::shared_ptr<const CompareResult> compare_;
  ConvergenceRecorder recorder_;
  std::unique_ptr<Exporter> exporter_;
  EditHistory edits_;
};

}  // namespace qnsim::gui
