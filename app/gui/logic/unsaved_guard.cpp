#include "app/gui/logic/unsaved_guard.h"

#include <utility>

namespace qnsim::gui {

void UnsavedGuard::request(bool unsaved, std::string what, std::function<void()> action) {
  if (!unsaved) {
    action();
    return;
  }
  what_ = std::move(what);
  action_ = std::move(action);
}

void UnsavedGuard::answer(Answer answer, const std::function<bool()>& save) {
  if (!asking()) return;
  if (answer == Answer::Save && !save()) return;
  std::function<void()> action = std::move(action_);
  action_ = nullptr;
  if (answer != Answer::Cancel) action();
}

}  // namespace qnsim::gui
