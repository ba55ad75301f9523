#include "app/gui/logic/scene_opener.h"

#include <algorithm>
#include <chrono>
#include <new>

#include "core/scene/catalog.h"

namespace qnsim::gui {
namespace {

// "cannot open PATH: why", the path said once: the readers' messages mostly begin with it already.
std::string failure(const std::string& path, const std::string& why) {
  for (const std::string& named : {path, resolveScenePath(path).string()})
    if (why.starts_with(named)) return "cannot open " + why;
  return "cannot open " + path + ": " + why;
}

}  // namespace

SceneOpener::SceneOpener(bool threaded, std::function<void()> done) : threaded_(threaded), done_(std::move(done)) {}

SceneOpener::~SceneOpener() {
  if (pending_.valid()) pending_.wait();
}

std::optional<std::string> SceneOpener::open(const std::string& path, std::vector<std::string> overrides, const TetgenOptions& tetgen) {
  if (pending_.valid()) return "still opening " + path_ + "; open " + path + " once it is done";
  path_ = path;
  pending_ = std::async(std::launch::async, [path, overrides = std::move(overrides), tetgen, threaded = threaded_, done = done_] {
    struct Done {  // also when the load throws
      const std::function<void()>& call;
      ~Done() {
        if (call) call();
      }
    } signal{done};
    return loadSession(path, overrides, threaded, tetgen);
  });
  return std::nullopt;
}

std::optional<OpenOutcome> SceneOpener::poll(bool wait) {
  if (!pending_.valid()) return std::nullopt;
  if (!wait && pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
  OpenOutcome outcome{path_, nullptr, {}};
  try {
    outcome.session = pending_.get();
  } catch (const std::bad_alloc&) {
    outcome.error = "cannot open " + path_ + ": out of memory while loading it (try a coarser mesh or a smaller memory_share)";
  } catch (const std::exception& e) {
    outcome.error = failure(path_, e.what());
  }
  std::replace(outcome.error.begin(), outcome.error.end(), '\n', ' ');  // one line in the log
  return outcome;
}

}  // namespace qnsim::gui
