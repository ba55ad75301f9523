#pragma once
// The question before an edited scene is closed or replaced: an action that would lose unsaved edits
// (opening another scene, closing the window) waits here until the user answers Save, Discard or
// Cancel; without unsaved edits it runs at once. The window shows the question; this holds the logic.
#include <functional>
#include <string>

namespace qnsim::gui {

class UnsavedGuard {
 public:
  enum class Answer { Save, Discard, Cancel };

  // Runs `action` now when nothing unsaved would be lost; else keeps it (replacing one already waiting)
  // and asks. `what` says what the action does ("open scenes/cloth.json", "close the window").
  void request(bool unsaved, std::string what, std::function<void()> action);
  bool asking() const { return static_cast<bool>(action_); }
  const std::string& what() const { return what_; }
  // Save: runs `save` and then the action, unless saving failed (the question stays); Discard: the
  // action without saving; Cancel: neither.
  void answer(Answer answer, const std::function<bool()>& save);

 private:
  std::string what_;
  std::function<void()> action_;
};

}  // namespace qnsim::gui
