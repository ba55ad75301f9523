// solver.time_limit_ms, a real-time frame budget: every method ends a frame's iterations once its solve
// has taken that long, finishing the iteration under way, and runs every iteration without it.
#include <gtest/gtest.h>

#include "core/scene/catalog.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

class TimeLimit : public ::testing::TestWithParam<std::string> {};

TEST_P(TimeLimit, EndsTheFrameOnceTheSolveHasTakenThatLong) {
  Scene scene = loadScene(catalogScenePath("twisting_bar"));  // its first frame takes hundreds of iterations to round-off
  for (const std::string& e : {"solver.method=" + GetParam(), std::string("solver.iterations=100000"), std::string("solver.gradient_tolerance=0"),
                               std::string("solver.time_limit_ms=3"), std::string("threads=1")})
    applyOverride(scene, e);
  Simulation sim(scene);
  sim.step();
  const std::vector<IterationRecord>& iterations = sim.lastSolve().iterations;
  ASSERT_GE(iterations.size(), 2u);
  EXPECT_LT(iterations.back().iteration, 100000) << "stopped by the time limit";
  EXPECT_GE(iterations.back().time_ms, 3.0) << "not before it";
  EXPECT_LT(iterations[iterations.size() - 2].time_ms, 3.0) << "at the first iteration past it";
}

INSTANTIATE_TEST_SUITE_P(EveryLoop, TimeLimit, ::testing::Values("qn", "newton", "anderson", "vbd", "jacobi", "admm", "pbd"));

}  // namespace
}  // namespace qnsim
