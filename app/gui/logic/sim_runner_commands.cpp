// The commands the window sends to a SimRunner: each is queued and runs on the simulation thread
// between frames, reporting to the user through say(). Every change to the simulation is an Edit.
#include "app/gui/logic/sim_runner.h"

#include <future>

#include "qnsim/error.h"

namespace qnsim::gui {
namespace {

// What an applied edit tells the user ("" for the edits whose effect shows by itself).
std::string report(const Edit& edit, const EditResult& result) {
  if (std::holds_alternative<Cut>(edit))
    return result.removed > 0 ? "cut " + std::to_string(result.removed) + " elements" : "the cut crossed no element";
  if (const auto* pin = std::get_if<PinVertices>(&edit)) return "pinned " + std::to_string(pin->vertices.size()) + " vertices";
  if (const auto* unpin = std::get_if<UnpinVertices>(&edit))
    return "released the attachments of " + std::to_string(unpin->vertices.size()) + " selected vertices";
  return "";
}

}  // namespace

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

void SimRunner::setDrag(std::vector<Drag> drag) {
  {
    std::lock_guard lock(mutex_);
    pending_drag_ = SetDrag{std::move(drag)};
  }
  wake_.notify_all();
}

long SimRunner::apply(Edit edit, bool continuing) {
  long number = 0;
  {
    std::lock_guard lock(mutex_);
    number = ++edits_posted_;
  }
  post([this, edit = std::move(edit), number, continuing] {
    try {
      const std::string said = report(edit, edits_.apply(*sim_, edit, continuing));
      if (!said.empty()) say(said);
    } catch (const Error& e) {
      say(e.what());
    }
    edits_done_ = number;
  });
  return number;
}

void SimRunner::undo() {
  post([this] {
    if (!edits_.canUndo()) return say("nothing to undo");
    const std::string what = edits_.descriptions()[edits_.done() - 1];
    edits_.undo(*sim_);
    say("undid " + what);
  });
}

void SimRunner::redo() {
  post([this] {
    if (!edits_.canRedo()) return say("nothing to redo");
    const std::string what = edits_.descriptions()[edits_.done()];
    edits_.redo(*sim_);
    say("redid " + what);
  });
}

bool SimRunner::saveScene(std::filesystem::path path, bool removed_elements) {
  auto written = std::make_shared<std::promise<bool>>();
  std::future<bool> result = written->get_future();
  post([this, path, removed_elements, written] {
    try {
      writeScene(sim_->savedScene(removed_elements), path);
      edits_.markSaved();
      say("saved the scene as " + path.string());
      written->set_value(true);
    } catch (const Error& e) {
      say(e.what());
      written->set_value(false);
    }
  });
  if (!threaded_) runCommands(), publish();  // the caller steps this runner: run it now
  return result.get();
}

void SimRunner::reset() {
  apply(Reset{});
  post([this] {
    history_.clear();
    totals_ = {};
  });
}

void SimRunner::setColorMode(ColorMode mode) {
  post([this, mode] { field_mode_ = mode; });
}

void SimRunner::setReference(bool enabled) {
  post([this, enabled] { sim_->setReferenceEnabled(enabled); });
}

void SimRunner::compare(std::vector<Method> methods) {
  busy_ = true;
  post([this, methods = std::move(methods)] {
    auto result = std::make_shared<CompareResult>();
    result->frame = sim_->frame() + 1;
    try {
      result->traces = sim_->compareNextFrame(methods);
      compare_ = result;
    } catch (const Error& e) {
      say(e.what());
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
      sim_->apply(LoadState{readState(path)});
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

void SimRunner::setExport(std::optional<std::filesystem::path> folder, ExportFormat format) {
  post([this, folder, format] {
    try {
      if (exporter_) {
        const size_t files = exporter_->finish().size();
        say("exported " + std::to_string(exporter_->exportedFrames()) + " frames to " + exporter_->folder().string() + " (" +
            std::to_string(files) + " files)" + (exporter_->warning().empty() ? "" : "; " + exporter_->warning()));
        exporter_.reset();
      }
      if (folder) {
        exporter_ = std::make_unique<Exporter>(*folder, format);
        exporter_->add(*sim_);
        say("exporting every frame as " + std::string(exportFormatName(format)) + " to " + folder->string());
      }
    } catch (const Error& e) {
      exporter_.reset();
      say(e.what());
    }
  });
}

}  // namespace qnsim::gui
