#pragma once
// Parallel loops (OpenMP) whose results never depend on the thread count: every reduction sums
// fixed blocks in a fixed order, so runs are bit-identical with 1 or N threads.

namespace qnsim {

// Number of threads the core's loops use; 0 restores the default: all cores, or OMP_NUM_THREADS when
// set (a machine shared with other busy processes runs faster with fewer threads).
void setThreadCount(int threads);
int threadCount();

// sum of values[0..n) in fixed blocks of 1024, blocks summed in order.
double deterministicSum(const double* values, int n);

}  // namespace qnsim
