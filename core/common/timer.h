#pragma once
#include <chrono>

namespace qnsim {

// Which clock every Timer reads: the wall clock (the default), or the process's CPU time, which an
// experiment on one thread switches to so that other processes' load on a shared machine does not
// inflate its times. A Timer keeps the clock it started with.
enum class TimerClock { Wall, ProcessCpu };
void setTimerClock(TimerClock clock);
TimerClock timerClock();
double processCpuMs();

// Stopwatch in milliseconds.
class Timer {
 public:
  Timer() : clock_(timerClock()) { restart(); }
  void restart() { start_ = now(); }
  double ms() const { return now() - start_; }

 private:
  double now() const {
    if (clock_ == TimerClock::ProcessCpu) return processCpuMs();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  TimerClock clock_;
  double start_ = 0;
};

// Adds the lifetime of the scope to an accumulator (ms).
class ScopedTimer {
 public:
  explicit ScopedTimer(double& total_ms) : total_(total_ms) {}
  ~ScopedTimer() { total_ += timer_.ms(); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  double& total_;
  Timer timer_;
};

}  // namespace qnsim
