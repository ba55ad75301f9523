// The commands the window sends to a SimRunner: each is queued and runs on the simulation thread
// between frames, reporting to the user through say().
#include "app/gui/logic/sim_runner.h"
#include "core/common/error.h"
#include "core/sim/state_io.h"

namespace qnsim::gui {

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

void SimRunner::cut(CutWedge wedge) {
  post([this, wedge] {
    const int removed = sim_->cut(wedge);
    say(removed > 0 ? "cut " + std::to_string(removed) + " elements" : std::string("the cut crossed no element"));
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

}  // namespace qnsim::gui
