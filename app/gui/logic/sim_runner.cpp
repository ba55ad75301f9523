#include "app/gui/logic/sim_runner.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/common/error.h"
#include "core/common/timer.h"
#include "core/sim/state_io.h"

namespace qnsim::gui {
namespace {

using Clock = std::chrono::steady_clock;

FrameSummary summarize(const Simulation& sim) {
  FrameSummary s;
  const FrameRecord& r = sim.lastFrame();
  const auto& its = sim.lastSolve().iterations;
  s.frame = r.frame;
  s.iterations = r.iterations;
  s.ls_trials = r.ls_trials;
  s.frame_ms = r.frame_ms;
  s.times = r.times;
  if (!its.empty()) {
    s.g0 = its.front().g;
    s.g = its.back().g;
    s.grad0 = its.front().grad_norm;
    s.grad = its.back().grad_norm;
    double alpha = 0;
    for (size_t k = 1; k < its.size(); ++k) alpha += its[k].alpha;
    s.mean_alpha = its.size() > 1 ? alpha / double(its.size() - 1) : 0.0;
  }
  s.rel_error = sim.lastRelativeErrors().empty() ? NAN : sim.lastRelativeErrors().back();
  return s;
}

void addTimes(PhaseTimes& total, const PhaseTimes& t) {
  total.gradient += t.gradient;
  total.linear_solve += t.linear_solve;
  total.lbfgs += t.lbfgs;
  total.line_search += t.line_search;
  total.contacts += t.contacts;
}

}  // namespace

SimRunner::SimRunner(std::unique_ptr<Simulation> simulation, bool threaded)
    : sim_(std::move(simulation)), surface_(render::makeSurfaceView(sim_->model())), threaded_(threaded) {
  publish();
  if (threaded_) thread_ = std::thread([this] { threadMain(); });
}

SimRunner::~SimRunner() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<const Snapshot> SimRunner::snapshot() const {
  std::lock_guard lock(mutex_);
  return published_;
}

std::vector<std::string> SimRunner::messages(size_t since) const {
  std::lock_guard lock(mutex_);
  return {messages_.begin() + std::min(since, messages_.size()), messages_.end()};
}

size_t SimRunner::messageCount() const {
  std::lock_guard lock(mutex_);
  return messages_.size();
}

void SimRunner::say(std::string message) {
  std::lock_guard lock(mutex_);
  messages_.push_back(std::move(message));
}

void SimRunner::post(Command command) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(command));
    ++posted_;
  }
  wake_.notify_all();
}

void SimRunner::setPlaying(bool playing) {
  {
    std::lock_guard lock(mutex_);
    playing_ = playing;
  }
  post([] {});  // republish so that the window sees the new state
}

void SimRunner::stepOnce() {
  {
    std::lock_guard lock(mutex_);
    step_requested_ = true;
  }
  wake_.notify_all();
}

void SimRunner::setRealTime(bool real_time) {
  std::lock_guard lock(mutex_);
  real_time_ = real_time;
}

void SimRunner::setDrag(std::vector<DragTerm> drag) {
  {
    std::lock_guard lock(mutex_);
    pending_drag_ = std::move(drag);
  }
  wake_.notify_all();
}

void SimRunner::reset() {
  post([this] {
    sim_->reset();
    history_.clear();
    totals_ = {};
  });
}

void SimRunner::setSettings(const Settings& settings) {
  post([this, settings] { sim_->setSettings(settings); });
}

void SimRunner::setMaterial(int region, std::shared_ptr<const Material> material) {
  post([this, region, material] {
    try {
      sim_->setMaterial(region, material->clone());
    } catch (const Error& e) {
      say(e.what());
    }
  });
}

void SimRunner::pin(std::vector<int> vertices, double stiffness) {
  post([this, vertices = std::move(vertices), stiffness] {
    sim_->pinVertices(vertices, stiffness);
    say("pinned " + std::to_string(vertices.size()) + " vertices");
  });
}

void SimRunner::unpin(std::vector<int> vertices) {
  post([this, vertices = std::move(vertices)] {
    sim_->unpinVertices(vertices);
    say("released the attachments of " + std::to_string(vertices.size()) + " selected vertices");
  });
}

void SimRunner::setColorMode(ColorMode mode) {
  post([this, mode] { field_mode_ = mode; });
}

void SimRunner::setReference(bool enabled) {
  post([this, enabled] { sim_->setReferenceEnabled(enabled); });
}

void SimRunner::compare(std::vector<CompareMethod> methods) {
  busy_ = true;
  post([this, methods = std::move(methods)] {
    auto result = std::make_shared<CompareResult>();
    result->frame = sim_->frame() + 1;
    std::vector<SolverSettings> settings;
    for (const CompareMethod& m : methods) {
      result->labels.push_back(m.label);
      settings.push_back(m.settings);
    }
    try {
      result->traces = sim_->compareNextFrame(settings);
      compare_ = result;
    } catch (const Error& e) {
      say(std::string("compare: ") + e.what());
    }
    busy_ = false;
  });
}

void SimRunner::saveState(std::filesystem::path path) {
  post([this, path] {
    try {
      writeState(path, sim_->state());
      say("saved the state of frame " + std::to_string(sim_->frame()) + " to " + path.string());
    } catch (const Error& e) {
      say(e.what());
    }
  });
}

void SimRunner::loadState(std::filesystem::path path) {
  post([this, path] {
    try {
      sim_->restoreState(readState(path));
      say("loaded frame " + std::to_string(sim_->frame()) + " from " + path.string());
    } catch (const Error& e) {
      say(e.what());
    }
  });
}

void SimRunner::startRecording(std::filesystem::path base, int frames) {
  post([this, base, frames] {
    recorder_.start(base, frames, sim_->scene().name);
    say("recording convergence of the next " + std::to_string(frames) + " frames");
  });
}

void SimRunner::stopRecording() {
  post([this] {
    try {
      const std::string written = recorder_.finish();
      if (!written.empty()) say("wrote " + written);
    } catch (const Error& e) {
      say(e.what());
    }
  });
}

void SimRunner::setObjExport(std::optional<std::filesystem::path> folder) {
  post([this, folder] {
    obj_folder_ = folder;
    if (folder) {
      std::error_code ec;
      std::filesystem::create_directories(*folder, ec);
      say("exporting an OBJ per frame to " + folder->string());
    }
  });
}

void SimRunner::runCommands() {
  std::deque<Command> commands;
  std::optional<std::vector<DragTerm>> drag;
  {
    std::lock_guard lock(mutex_);
    commands.swap(queue_);
    drag.swap(pending_drag_);
  }
  if (drag) sim_->objective().drags = std::move(*drag);
  for (Command& c : commands) c();
  {
    std::lock_guard lock(mutex_);
    done_ += static_cast<long>(commands.size());
  }
  done_changed_.notify_all();
}

void SimRunner::stepFrame() {
  const Timer timer;
  try {
    sim_->step();
  } catch (const Error& e) {
    {
      std::lock_guard lock(mutex_);
      playing_ = false;
    }
    say(std::string("paused: ") + e.what());
    return;
  }
  afterFrame();
  const double seconds = timer.ms() * 1e-3;
  steps_per_second_ = steps_per_second_ == 0 ? 1.0 / seconds : 0.9 * steps_per_second_ + 0.1 / seconds;
}

void SimRunner::afterFrame() {
  const FrameSummary s = summarize(*sim_);
  history_.push_back(s);
  if (history_.size() > kHistory) history_.pop_front();
  ++totals_.frames;
  totals_.iterations += s.iterations;
  totals_.ls_trials += s.ls_trials;
  totals_.alpha_sum += s.mean_alpha * s.iterations;
  totals_.frame_ms += s.frame_ms;
  addTimes(totals_.times, s.times);
  try {
    if (recorder_.active()) {
      const std::string written = recorder_.add({sim_->frame(), sim_->lastSolve().iterations, sim_->lastRelativeErrors()});
      if (!written.empty()) say("wrote " + written);
    }
    if (obj_folder_) {
      char name[32];
      std::snprintf(name, sizeof name, "frame_%05d.obj", sim_->frame());
      writeSurfaceObj(*obj_folder_ / name, surface_, sim_->positions());
    }
  } catch (const Error& e) {
    obj_folder_.reset();
    say(e.what());
  }
}

void SimRunner::publish() {
  auto s = std::make_shared<Snapshot>();
  s->frame = sim_->frame();
  s->time = sim_->time();
  s->x = sim_->positions();
  s->record = sim_->lastFrame();
  s->iterations = sim_->lastSolve().iterations;
  s->rel_error = sim_->lastRelativeErrors();
  s->history.assign(history_.begin(), history_.end());
  s->totals = totals_;
  for (const Attachment& a : sim_->model().attachments) s->attached.push_back(a.vertex);
  s->field_mode = field_mode_;
  vertexField(sim_->model(), s->x, field_mode_, s->field);
  s->settings = sim_->settings();
  s->refactor_pending = sim_->refactorPending();
  s->recording = recorder_.active();
  s->recorded = recorder_.recorded();
  s->record_target = recorder_.target();
  s->compare = compare_;
  s->steps_per_second = steps_per_second_;
  std::function<void()> notify;
  {
    std::lock_guard lock(mutex_);
    s->playing = playing_;
    published_ = std::move(s);
    notify = on_publish_;
  }
  if (notify) notify();
}

void SimRunner::onPublish(std::function<void()> callback) {
  std::lock_guard lock(mutex_);
  on_publish_ = std::move(callback);
}

void SimRunner::pump() {
  runCommands();
  bool step = false;
  {
    std::lock_guard lock(mutex_);
    step = playing_ || step_requested_;
    step_requested_ = false;
  }
  if (step) stepFrame();
  publish();
}

void SimRunner::sync() {
  if (!threaded_) {
    pump();
    return;
  }
  std::unique_lock lock(mutex_);
  const long target = posted_;
  done_changed_.wait(lock, [&] { return done_ >= target || quit_; });
}

void SimRunner::threadMain() {
  auto next_due = Clock::now();
  for (;;) {
    bool step = false;
    {
      std::unique_lock lock(mutex_);
      const auto ready = [&] {
        const bool due = playing_ && (!real_time_ || Clock::now() >= next_due);
        return quit_ || !queue_.empty() || pending_drag_.has_value() || step_requested_ || due;
      };
      if (playing_ && real_time_) wake_.wait_until(lock, next_due, ready);
      else wake_.wait(lock, ready);
      if (quit_) return;
      const bool due = playing_ && (!real_time_ || Clock::now() >= next_due);
      step = step_requested_ || due;
      step_requested_ = false;
    }
    runCommands();
    if (step) {
      const auto h = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(sim_->settings().time_step));
      next_due = std::max(next_due + h, Clock::now());
      stepFrame();
    }
    publish();
  }
}

}  // namespace qnsim::gui
