#include "core/common/log.h"

#include <cstdio>
#include <mutex>

namespace qnsim {
namespace {
std::mutex& handlerMutex() {
  static std::mutex m;
  return m;
}
WarningHandler& handler() {
  static WarningHandler h = [](const std::string& message) { std::fprintf(stderr, "qnsim: warning: %s\n", message.c_str()); };
  return h;
}
}  // namespace

WarningHandler setWarningHandler(WarningHandler h) {
  std::lock_guard lock(handlerMutex());
  std::swap(handler(), h);
  return h;
}

void warn(const std::string& message) {
  std::lock_guard lock(handlerMutex());
  if (handler()) handler()(message);
}

}  // namespace qnsim
