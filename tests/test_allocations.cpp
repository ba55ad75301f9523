// The frame loop allocates nothing once warmed up: malloc and friends are interposed for the whole
// test binary (glibc exports the real ones as __libc_*) and counted while frames are stepped.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

#include "qnsim/simulation.h"
#include "tests/test_util.h"

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
}

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
void count() {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

extern "C" {
void* malloc(size_t n) {
  count();
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t size) {
  count();
  return __libc_calloc(n, size);
}
void* realloc(void* p, size_t n) {
  count();
  return __libc_realloc(p, n);
}
void* aligned_alloc(size_t alignment, size_t n) {
  count();
  return __libc_memalign(alignment, n);
}
int posix_memalign(void** out, size_t alignment, size_t n) {
  count();
  *out = __libc_memalign(alignment, n);
  return *out ? 0 : ENOMEM;
}
}

namespace qnsim {
namespace {

long allocationsWhileStepping(const std::string& scene_name, const char* method) {
  Scene scene = loadScene(catalogScenePath(scene_name));
  applyOverride(scene, "solver.method", method);
  Simulation sim(scene);
  for (int f = 0; f < 3; ++f) sim.step();  // warm up: scratch buffers reach their sizes
  allocations = 0;
  counting = true;
  for (int f = 0; f < 5; ++f) sim.step();
  counting = false;
  return allocations;
}

TEST(Allocations, SteadyStateFramesAllocateNothing) {
  for (const char* scene : {"twisting_bar", "cloth"})
    for (const char* method : {"qn", "pd", "gd"}) EXPECT_EQ(allocationsWhileStepping(scene, method), 0) << scene << " " << method;
}

TEST(Allocations, TheCounterSeesAllocations) {
  counting = true;
  allocations = 0;
  VecX v(1000);
  v.setZero();
  counting = false;
  EXPECT_GE(allocations.load(), 1);
}

}  // namespace
}  // namespace qnsim
