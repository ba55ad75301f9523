#pragma once
#include <chrono>

namespace qnsim {

// Wall-clock stopwatch in milliseconds.
class Timer {
 public:
  Timer() : start_(Clock::now()) {}
  void restart() { start_ = Clock::now(); }
  double ms() const { return std::chrono::duration<double, std::milli>(Clock::now() - start_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
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
