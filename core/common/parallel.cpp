#include "core/common/parallel.h"

#include <omp.h>

#include <algorithm>
#include <vector>

namespace qnsim {

// OpenMP's own default, read once before anything changes it: all cores, or OMP_NUM_THREADS if set.
static const int kDefaultThreads = omp_get_max_threads();

void setThreadCount(int threads) { omp_set_num_threads(threads > 0 ? threads : kDefaultThreads); }

int threadCount() { return omp_get_max_threads(); }

double deterministicSum(const double* values, int n) {
  constexpr int kBlock = 1024;
  const int blocks = (n + kBlock - 1) / kBlock;
  if (blocks <= 1) {
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += values[i];
    return sum;
  }
  thread_local std::vector<double> partial;  // the calling thread's scratch; reused, so no allocation per call
  partial.assign(blocks, 0.0);
  double* block_sums = partial.data();  // worker threads must write through this pointer, not `partial`
#pragma omp parallel for schedule(static)
  for (int b = 0; b < blocks; ++b) {
    double sum = 0.0;
    for (int i = b * kBlock, end = std::min(n, (b + 1) * kBlock); i < end; ++i) sum += values[i];
    block_sums[b] = sum;
  }
  double sum = 0.0;
  for (double p : partial) sum += p;
  return sum;
}

}  // namespace qnsim
