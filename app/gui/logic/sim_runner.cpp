#include "app/gui/logic/sim_runner.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/model/removal.h"
#include "qnsim/error.h"

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

}  // namespace

SimRunner::SimRunner(std::unique_ptr<Simulation> simulation, bool threaded)
    : sim_(std::move(simulation)),
      surface_(std::make_shared<view::SurfaceView>(view::makeSurfaceView(sim_->model()))),
      surface_version_(sim_->topologyVersion()),
      threaded_(threaded) {
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
  try {
    if (exporter_) exporter_->finish();  // a .glb is written at the end of its export: closing ends it
  } catch (const Error&) {
  }
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

void SimRunner::runCommands() {
  std::deque<Command> commands;
  std::optional<SetDrag> drag;
  {
    std::lock_guard lock(mutex_);
    commands.swap(queue_);
    drag.swap(pending_drag_);
  }
  if (drag) {
    try {
      sim_->apply(std::move(*drag));
    } catch (const Error& e) {
      say(e.what());
    }
  }
  for (Command& c : commands) c();
  {
    std::lock_guard lock(mutex_);
    done_ += static_cast<long>(commands.size());
  }
  done_changed_.notify_all();
}

void SimRunner::stepFrame() {
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
}

void SimRunner::afterFrame() {
  if (!sim_->lastWarning().empty()) say(sim_->lastWarning());
  const FrameSummary s = summarize(*sim_);
  history_.push_back(s);
  if (history_.size() > kHistory) history_.pop_front();
  ++totals_.frames;
  totals_.iterations += s.iterations;
  totals_.ls_trials += s.ls_trials;
  totals_.alpha_sum += s.mean_alpha * s.iterations;
  totals_.frame_ms += s.frame_ms;
  totals_.times += s.times;
  try {
    if (recorder_.active()) {
      const std::string written = recorder_.add({sim_->frame(), sim_->lastSolve().iterations, sim_->lastRelativeErrors()});
      if (!written.empty()) say("wrote " + written);
    }
    if (exporter_) exporter_->add(*sim_);
  } catch (const Error& e) {
    exporter_.reset();
    say(e.what());
  }
}

// A new surface once elements were removed or restored; the old one stays valid for whoever holds it.
void SimRunner::followTopology() {
  if (surface_version_ == sim_->topologyVersion()) return;
  surface_ = std::make_shared<view::SurfaceView>(view::makeSurfaceView(sim_->model()));
  surface_version_ = sim_->topologyVersion();
}

void SimRunner::publish() {
  followTopology();
  auto s = std::make_shared<Snapshot>();
  s->frame = sim_->frame();
  s->time = sim_->time();
  s->x = sim_->positions();
  s->surface = surface_;
  s->removed = removedCount(sim_->model());
  s->record = sim_->lastFrame();
  s->iterations = sim_->lastSolve().iterations;
  s->rel_error = sim_->lastRelativeErrors();
  s->history.assign(history_.begin(), history_.end());
  s->totals = totals_;
  for (const Attachment& a : sim_->model().attachments) s->attached.push_back(a.vertex);
  s->field_mode = field_mode_;
  vertexField(sim_->model(), s->x, field_mode_, s->field);
  s->refactor_pending = sim_->refactorPending();
  s->recording = recorder_.active();
  s->recorded = recorder_.recorded();
  s->record_target = recorder_.target();
  s->compare = compare_;
  s->settings = sim_->settings();
  for (const Region& r : sim_->model().regions) s->regions.push_back({r.name, r.is_solid(), r.stiffness, r.material});
  s->colliders = sim_->scene().colliders;
  s->posed_colliders = sim_->colliders();
  s->edits_done = edits_done_;
  s->undo_list = edits_.descriptions();
  s->undo_done = edits_.done();
  s->unsaved = edits_.modified();
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
