#include "core/common/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace qnsim {
namespace {

// How long an idle worker spins before it sleeps (see Pool::spinWhileIdle).
constexpr int kSpinMicroseconds = 200;
// How many pauses the caller spins waiting for a worker's chunk before it yields.
constexpr int kWaitSpins = 1000;

// A job is identified by its generation. Chunks are claimed with a compare-and-swap on one word
// holding (generation, front, back), so a worker that woke late for an old job can never take a chunk
// of a newer one. The caller claims from the front and the workers from the back: with one worker
// each thread runs one contiguous range, so a loop that gathers what the previous one scattered
// (an element's forces onto its vertices) mostly reads its own core's cache.
class Pool {
 public:
  explicit Pool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }
  int workers() const { return static_cast<int>(threads_.size()); }

  // Returns false (and does nothing) if another thread is using the pool; the caller then runs alone.
  bool run(int n, int grain, ChunkBody body) {
    std::unique_lock caller(caller_, std::try_to_lock);
    if (!caller.owns_lock()) return false;
    grain = std::max(grain, (n + kMaxChunks - 1) / kMaxChunks);  // front and back have 16 bits each
    const Job job = makeJob(body, n, grain, workers() + 1);
    const uint64_t chunks = static_cast<uint64_t>(job.chunks);
    uint64_t generation;
    {
      std::lock_guard lock(mutex_);
      job_ = job;
      generation = ++generation_ & 0xffffffffu;
      state_.store(generation << 32 | chunks, std::memory_order_release);
      published_.store(generation_, std::memory_order_release);
    }
    wake_.notify_all();
    while (runChunk(generation, job_, false)) {
    }
    waitForStartedChunks();
    return true;
  }

 private:
  static constexpr int kMaxChunks = 0xffff;

  struct Job {
    const ChunkBody* body = nullptr;
    int n = 0, grain = 1, chunks = 0;
    bool even = false;
    // Where chunk k starts: k grains in, or for an even job k / chunks of the way, down to a multiple of
    // kAlign.
    int start(int k) const {
      if (k >= chunks) return n;
      return even ? static_cast<int>(static_cast<int64_t>(k) * n / chunks) / kAlign * kAlign : k * grain;
    }
  };

  // As many chunks as `grain` gives, rounded up to a multiple of the thread count, of about one size:
  // with 8 chunks of 256 tets and the last of 120, one thread of two ran 1024 tets and the other 888.
  // Chunks still start at multiples of 16, as with the fixed grains of 64 or more, so that kernels
  // taking elements 4, 8 or 16 at a time from a chunk's start group them as before: results do not
  // depend on the thread count. Smaller grains (whole blocks, or chunks too small to even out) keep
  // their fixed chunks.
  static constexpr int kAlign = 16;
  static Job makeJob(const ChunkBody& body, int n, int grain, int threads) {
    const int chunks = (n + grain - 1) / grain;
    if (grain < 4 * kAlign || chunks <= 1) return {&body, n, grain, chunks, false};
    return {&body, n, grain, std::min((chunks + threads - 1) / threads * threads, kMaxChunks), true};
  }

  // Claims and runs one chunk of job `generation`, the first left or (from_back) the last; false when
  // none is left (or the job is over).
  bool runChunk(uint64_t generation, const Job& job, bool from_back) {
    uint64_t state = state_.load(std::memory_order_acquire);
    for (;;) {
      if ((state >> 32) != generation) return false;
      const int front = static_cast<int>(state >> 16 & 0xffffu), back = static_cast<int>(state & 0xffffu);
      if (front >= back) return false;
      const int chunk = from_back ? back - 1 : front;
      if (state_.compare_exchange_weak(state, from_back ? state - 1 : state + (1u << 16), std::memory_order_acq_rel)) {
        const int begin = job.start(chunk), end = job.start(chunk + 1);
        if (begin < end) (*job.body)(begin, end);
        return true;
      }
    }
  }

  // The caller waits only for chunks a worker has started, which end within microseconds: it spins
  // first (a yield is a system call, 5 % of the cloth's main thread when it yielded at once), then
  // yields, so that on an oversubscribed machine the worker it waits for gets the core.
  void waitForStartedChunks() const {
    for (int spins = 0; active_.load(std::memory_order_acquire) > 0; ++spins) {
      if (spins < kWaitSpins) __builtin_ia32_pause();
      else std::this_thread::yield();
    }
  }

  // Loops come in quick succession within a frame, between serial vector work that takes up to a
  // few hundred microseconds on the larger scenes: spin that long before sleeping. A worker woken
  // from sleep arrives tens of microseconds late and leaves its share of a short loop to the caller
  // (spinning 4000 pauses, 37 us here, the cloth's worker ran 28 % of the solves' parts, not half).
  void spinWhileIdle(uint64_t seen) const {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(kSpinMicroseconds);
    while (published_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < until)
      for (int i = 0; i < 64; ++i) __builtin_ia32_pause();
  }

  void work() {
    uint64_t seen = 0;
    for (;;) {
      spinWhileIdle(seen);
      Job job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        job = job_;
        active_.fetch_add(1, std::memory_order_acq_rel);  // before claiming: the caller waits for it
      }
      while (runChunk(seen & 0xffffffffu, job, true)) {
      }
      active_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  uint64_t generation_ = 0;
  Job job_;
  // Each on its own cache line: idle workers poll published_, and chunks are claimed through state_.
  alignas(64) std::atomic<uint64_t> state_{0};
  alignas(64) std::atomic<uint64_t> published_{0};
  alignas(64) std::atomic<int> active_{0};
  std::mutex caller_;
};

int defaultThreads() {
  if (const char* env = std::getenv("QNSIM_THREADS"); env && std::atoi(env) > 0) return std::atoi(env);
  return std::max(1u, std::thread::hardware_concurrency());
}

// Shared: a loop running on one thread keeps its pool while another thread (a scene loading in the
// background) sets a new thread count.
std::mutex pool_mutex;
std::shared_ptr<Pool> pool;
int thread_count = 0;  // 0 until first use

// With pool_mutex held.
void resetPool(int threads) {
  const int count = threads > 0 ? threads : defaultThreads();
  if (count == thread_count) return;
  thread_count = count;
  pool = count > 1 ? std::make_shared<Pool>(count - 1) : nullptr;
}

}  // namespace

void setThreadCount(int threads) {
  std::lock_guard lock(pool_mutex);
  resetPool(threads);
}

int threadCount() {
  std::lock_guard lock(pool_mutex);
  if (thread_count == 0) resetPool(0);
  return thread_count;
}

void parallelFor(int n, int grain, ChunkBody body) {
  if (n <= 0) return;
  std::shared_ptr<Pool> workers;
  if (n > grain) {
    std::lock_guard lock(pool_mutex);
    if (thread_count == 0) resetPool(0);
    workers = pool;
  }
  if (!workers || !workers->run(n, grain, body)) body(0, n);
}

double deterministicSum(const double* values, int n) {
  constexpr int kBlock = 1024;
  const int blocks = (n + kBlock - 1) / kBlock;
  thread_local std::vector<double> partial;  // the calling thread's scratch, reused: no allocation per call
  partial.assign(blocks, 0.0);
  double* block_sums = partial.data();
  auto sumBlocks = [&](int begin, int end) {
    for (int b = begin; b < end; ++b) {
      // Four interleaved sums, so that the adds do not wait on each other (and vectorise).
      double lane[4] = {0.0, 0.0, 0.0, 0.0};
      const int first = b * kBlock, stop = std::min(n, first + kBlock);
      int i = first;
      for (; i + 4 <= stop; i += 4)
        for (int k = 0; k < 4; ++k) lane[k] += values[i + k];
      for (; i < stop; ++i) lane[0] += values[i];
      block_sums[b] = (lane[0] + lane[1]) + (lane[2] + lane[3]);
    }
  };
  parallelFor(blocks, 8, sumBlocks);
  double sum = 0.0;
  for (double p : partial) sum += p;
  return sum;
}

}  // namespace qnsim
