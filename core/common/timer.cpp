#include "core/common/timer.h"

#include <atomic>
#include <ctime>

namespace qnsim {
namespace {
std::atomic<TimerClock> clock_in_use{TimerClock::Wall};
}  // namespace

void setTimerClock(TimerClock clock) { clock_in_use.store(clock); }
TimerClock timerClock() { return clock_in_use.load(std::memory_order_relaxed); }

double processCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

}  // namespace qnsim
