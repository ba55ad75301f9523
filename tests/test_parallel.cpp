// The thread pool: every index exactly once, any thread count or number of chunks, even chunks for
// large grains, fixed vector blocks, concurrent callers, a thread count set while another thread
// loops, and sums that do not depend on the thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/common/parallel.h"
#include "core/common/vector_blocks.h"

namespace qnsim {
namespace {

struct RestoreThreads {
  ~RestoreThreads() { setThreadCount(0); }
};

TEST(Parallel, EveryIndexExactlyOnceForAnyThreadCount) {
  RestoreThreads restore;
  for (int threads : {1, 2, 3, 8}) {
    setThreadCount(threads);
    EXPECT_EQ(threadCount(), threads);
    for (int n : {0, 1, 7, 1000, 100003}) {
      std::vector<std::atomic<int>> visits(n);
      for (int repeat = 0; repeat < 20; ++repeat)
        parallelFor(n, 64, [&](int begin, int end) {
          for (int i = begin; i < end; ++i) visits[i].fetch_add(1);
        });
      for (int i = 0; i < n; ++i) ASSERT_EQ(visits[i].load(), 20) << "threads " << threads << " n " << n << " index " << i;
    }
  }
}

// Grains of 64 or more give chunks of about one size, at most as many as the grain would rounded up to a
// multiple of the thread count, each starting at a multiple of 16 (kernels group elements from a chunk's
// start); smaller grains keep their fixed chunks.
TEST(Parallel, LargeGrainsSplitEvenlyAtMultiplesOfSixteen) {
  RestoreThreads restore;
  for (int threads : {2, 3}) {
    setThreadCount(threads);
    for (int n : {40, 844, 1836, 1912, 100003})
      for (int grain : {4, 32, 64, 256, 512}) {
        std::mutex mutex;
        std::vector<std::pair<int, int>> chunks;
        parallelFor(n, grain, [&](int begin, int end) {
          std::lock_guard lock(mutex);
          chunks.emplace_back(begin, end);
        });
        std::sort(chunks.begin(), chunks.end());
        const std::string where = "threads " + std::to_string(threads) + " n " + std::to_string(n) + " grain " + std::to_string(grain);
        int next = 0, smallest = n, largest = 0;
        for (auto [begin, end] : chunks) {
          ASSERT_EQ(begin, next) << where;
          ASSERT_LT(begin, end) << where;
          EXPECT_EQ(begin % (grain < 64 ? grain : 16), 0) << where;
          smallest = std::min(smallest, end - begin), largest = std::max(largest, end - begin);
          next = end;
        }
        ASSERT_EQ(next, n) << where;
        const int fixed = (n + grain - 1) / grain;
        if (grain < 64 || fixed == 1) {
          EXPECT_EQ(static_cast<int>(chunks.size()), fixed) << where;
        } else {
          EXPECT_LE(largest - smallest, 32) << where;
          EXPECT_LT(largest, grain + 16) << where;
          EXPECT_LE(static_cast<int>(chunks.size()), (fixed + threads - 1) / threads * threads) << where;
        }
      }
  }
}

// forVectorBlocks hands out every block of kVectorBlock entries once (the last may be shorter), on any
// number of threads, a short last block included.
TEST(Parallel, VectorBlocksCoverEveryEntryOnceInFixedBlocks) {
  RestoreThreads restore;
  for (int threads : {1, 2, 3}) {
    setThreadCount(threads);
    for (long n : {0L, 1L, 2048L, 2052L, 3000L, 10374L, 19683L}) {
      std::mutex mutex;
      std::vector<std::pair<long, long>> blocks;
      forVectorBlocks(n, [&](long begin, long length) {
        std::lock_guard lock(mutex);
        blocks.emplace_back(begin, length);
      });
      std::sort(blocks.begin(), blocks.end());
      ASSERT_EQ(static_cast<int>(blocks.size()), vectorBlockCount(n)) << "n " << n;
      for (size_t b = 0; b < blocks.size(); ++b) {
        EXPECT_EQ(blocks[b].first, static_cast<long>(b) * kVectorBlock) << "n " << n;
        EXPECT_EQ(blocks[b].second, std::min(kVectorBlock, n - blocks[b].first)) << "n " << n;
      }
    }
  }
}

// More chunks than the claim word counts (65535): the grain grows, and still every index runs once.
TEST(Parallel, MoreChunksThanTheClaimWordHolds) {
  RestoreThreads restore;
  for (int threads : {1, 2, 3}) {
    setThreadCount(threads);
    const int n = 300007;
    std::vector<std::atomic<int>> visits(n);
    parallelFor(n, 1, [&](int begin, int end) {
      for (int i = begin; i < end; ++i) visits[i].fetch_add(1);
    });
    for (int i = 0; i < n; ++i) ASSERT_EQ(visits[i].load(), 1) << "threads " << threads << " index " << i;
  }
}

TEST(Parallel, ConcurrentCallersEachGetTheirWorkDone) {
  RestoreThreads restore;
  setThreadCount(3);
  std::vector<std::thread> callers;
  std::atomic<long> total{0};
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (int repeat = 0; repeat < 200; ++repeat)
        parallelFor(5000, 100, [&](int begin, int end) { total.fetch_add(end - begin); });
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(total.load(), 4L * 200 * 5000);
}

// A loop keeps its pool while another thread sets a new thread count (the sandbox builds a scene on a
// worker thread while the current one runs).
TEST(Parallel, TheThreadCountChangesSafelyUnderARunningLoop) {
  RestoreThreads restore;
  std::atomic<bool> done{false};
  std::atomic<long> total{0};
  std::thread looper([&] {
    for (int repeat = 0; repeat < 2000; ++repeat)
      parallelFor(5000, 50, [&](int begin, int end) { total.fetch_add(end - begin); });
    done = true;
  });
  for (int threads = 1; !done; threads = threads % 4 + 1) setThreadCount(threads);
  looper.join();
  EXPECT_EQ(total.load(), 2000L * 5000);
}

TEST(Parallel, DeterministicSumIsIndependentOfTheThreadCount) {
  RestoreThreads restore;
  std::vector<double> values(123457);
  for (size_t i = 0; i < values.size(); ++i) values[i] = 1.0 / (1.0 + i) * (i % 2 ? 1 : -1) * 1e3;
  setThreadCount(1);
  const double one = deterministicSum(values.data(), static_cast<int>(values.size()));
  for (int threads : {2, 4, 7}) {
    setThreadCount(threads);
    EXPECT_EQ(deterministicSum(values.data(), static_cast<int>(values.size())), one) << threads;
  }
  EXPECT_NEAR(one, std::accumulate(values.begin(), values.end(), 0.0), 1e-9);
}

}  // namespace
}  // namespace qnsim
