// solver.time_limit_ms, a real-time frame budget: every method ends a frame's iterations once its solve
// has taken that long, finishing the iteration under way, and runs every iteration without it.
#include <gtest/gtest.h>

#include "core/scene/catalog.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

class TimeLimit : public ::testing::TestWithParam<std::string> {
 protected:
  // The last iteration of the twisting bar's first frame (hundreds of iterations to round-off) under the
  // method, with `iterations` and the time limit, and no gradient tolerance.
  int lastIteration(int iterations, double limit_ms) {
    Scene scene = loadScene(catalogScenePath("twisting_bar"));
    for (const std::string& e : {"solver.method=" + GetParam(), "solver.iterations=" + std::to_string(iterations),
                                 std::string("solver.gradient_tolerance=0"), "solver.time_limit_ms=" + std::to_string(limit_ms),
                                 std::string("threads=1")})
      applyOverride(scene, e);
    Simulation sim(scene);
    sim.step();
    return sim.lastSolve().iterations.back().iteration;
  }
};

// Deterministic whatever the machine's load: a limit that has passed once any work is done ends the frame
// after exactly one iteration (never before it), and without a limit every iteration runs.
TEST_P(TimeLimit, EndsTheFrameAtTheFirstIterationPastItAndNeverBeforeOne) {
  EXPECT_EQ(lastIteration(1000, 1e-6), 1);
  EXPECT_EQ(lastIteration(7, 0), 7);
}

INSTANTIATE_TEST_SUITE_P(EveryLoop, TimeLimit, ::testing::Values("qn", "newton", "anderson", "vbd", "jacobi", "admm", "pbd"));

}  // namespace
}  // namespace qnsim
