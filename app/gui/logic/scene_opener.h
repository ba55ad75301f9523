#pragma once
// Opening a scene or mesh file while the current one runs: the sandbox's Open button, its catalog and
// recent lists and files dropped on the window all come here. The file is loaded on a worker thread and
// the current session is never touched, so a file that cannot be opened (malformed, broken, missing, too
// large) leaves it running as it was, pins, material edits and recordings included, and gives one line
// that names the file and what is wrong.
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/logic/session.h"

namespace qnsim::gui {

struct OpenOutcome {
  std::string path;
  std::unique_ptr<Session> session;  // null when the load failed
  std::string error;                 // why it failed, one line
};

class SceneOpener {
 public:
  // `threaded`: the loaded session's runner gets its own thread. `done` is called on the worker thread
  // when a load ends, whatever its outcome (the window wakes its event loop with it).
  explicit SceneOpener(bool threaded, std::function<void()> done = {});
  ~SceneOpener();  // waits for a running load
  SceneOpener(const SceneOpener&) = delete;
  SceneOpener& operator=(const SceneOpener&) = delete;

  // Starts loading `path` with the overrides (KEY=VALUE), a surface file tetrahedralised with `tetgen`.
  // Returns why it cannot start instead (a load is still running).
  std::optional<std::string> open(const std::string& path, std::vector<std::string> overrides = {}, const TetgenOptions& tetgen = {});
  bool loading() const { return pending_.valid(); }
  // The load that has ended, once (wait: until the running one ends); nothing while none has.
  std::optional<OpenOutcome> poll(bool wait = false);

 private:
  const bool threaded_;
  std::function<void()> done_;
  std::string path_;
  std::future<std::unique_ptr<Session>> pending_;
};

}  // namespace qnsim::gui
