#pragma once
// Parallel loops whose results never depend on the thread count, and which never run slower than one
// thread when the machine is busy.
//
// parallelFor splits [0, n) into fixed chunks. The calling thread claims chunks itself while pooled
// workers join as they wake; the caller waits only for chunks a worker has actually started, never for
// a worker that is not running (as a barrier-synchronised OpenMP loop would on an oversubscribed
// machine). Each chunk writes its own outputs and every reduction sums fixed blocks in a fixed order,
// so runs are bit-identical with 1 or N threads.
#include <type_traits>
#include <utility>

namespace qnsim {

// A non-owning reference to a callable void(int, int): unlike std::function it never allocates. It
// is only passed down a call, so a temporary lambda outlives it.
class ChunkBody {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, ChunkBody>>>
  ChunkBody(F&& f)  // NOLINT: implicit by design, so that parallelFor takes lambdas
      : object_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, int b, int e) { (*static_cast<std::remove_reference_t<F>*>(o))(b, e); }) {}
  void operator()(int begin, int end) const { call_(object_, begin, end); }

 private:
  void* object_;
  void (*call_)(void*, int, int);
};

// Threads the loops use, the caller included; 0 = the default: QNSIM_THREADS if set, else all cores.
void setThreadCount(int threads);
int threadCount();

// body(begin, end) for consecutive chunks of `grain` indices covering [0, n).
void parallelFor(int n, int grain, ChunkBody body);

// sum of values[0..n) in fixed blocks of 1024, the blocks summed in order.
double deterministicSum(const double* values, int n);

}  // namespace qnsim
