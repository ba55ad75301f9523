// The Chebyshev semi-iterative direction (paper Alg. 3): plain PD for the first S iterations (claim
// C16, exactly), faster than PD after them on the twisting bar (C14), a training estimate of rho that
// matches the PD iteration's rate, and no harm from a poor rho thanks to the line search (C18).
#include <gtest/gtest.h>

#include "core/solver/chebyshev.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

Method method(const std::string& name, int iterations, const std::string& rho = "0") {
  return {name, {"solver.method=" + name, "solver.iterations=" + std::to_string(iterations), "solver.chebyshev_rho=" + rho}};
}

// The twisting bar three frames into its first twist pulse.
Simulation& twistedBar() {
  static const std::unique_ptr<Simulation> sim = [] {
    auto s = std::make_unique<Simulation>(loadScene(catalogScenePath("twisting_bar")));
    for (int f = 0; f < 3; ++f) s->step();
    return s;
  }();
  return *sim;
}

TEST(Chebyshev, C16IdenticalToProjectiveDynamicsForTheFirstSIterations) {
  Simulation& sim = twistedBar();
  const auto traces = sim.compareNextFrame({method("pd", 9), method("chebyshev", 9, "0.99")});
  ASSERT_EQ(traces[0].result.iterations.size(), traces[1].result.iterations.size());
  for (size_t k = 0; k < traces[0].result.iterations.size(); ++k)
    EXPECT_EQ(traces[0].result.iterations[k].g, traces[1].result.iterations[k].g) << "iteration " << k;
}

TEST(Chebyshev, C14FasterThanProjectiveDynamicsAfterTheDelay) {
  Simulation& sim = twistedBar();
  const auto traces = sim.compareNextFrame({method("pd", 50), method("chebyshev", 50)});
  const double e_pd = traces[0].rel_error.back(), e_chebyshev = traces[1].rel_error.back();
  std::printf("relative error after 50 iterations: PD %.3g, Chebyshev %.3g\n", e_pd, e_chebyshev);
  EXPECT_LT(e_chebyshev, 0.5 * e_pd);
  for (size_t k = 1; k < traces[1].result.iterations.size(); ++k)
    EXPECT_LE(traces[1].result.iterations[k].g, traces[1].result.iterations[k - 1].g) << "the line search keeps g decreasing";
}

TEST(Chebyshev, C17DelayingTheAccelerationHelps) {
  Simulation& sim = twistedBar();
  const Method delayed{"S = 10", {"solver.method=chebyshev", "solver.iterations=50"}};
  Method immediate{"S = 1", delayed.edits};
  immediate.edits.push_back("solver.chebyshev_delay=1");
  const auto traces = sim.compareNextFrame({delayed, immediate});
  std::printf("relative error after 50 iterations: S = 10 %.3g, S = 1 %.3g\n", traces[0].rel_error.back(), traces[1].rel_error.back());
  EXPECT_LE(traces[0].rel_error.back(), traces[1].rel_error.back());
}

TEST(Chebyshev, TrainingEstimatesTheRateOfTheProjectiveDynamicsIteration) {
  Simulation sim(loadScene(catalogScenePath("twisting_bar")));
  sim.step();
  Objective& objective = test::objectiveOf(sim);
  SystemMatrix system(sim.model(), objective.inertiaWeight());
  const double rho = estimateSpectralRadius(objective, system, sim.positions());
  EXPECT_GT(rho, 0.5);
  EXPECT_LT(rho, 1.0);
  // The PD error contracts by about rho per step: 20 more steps shrink the step length by ~rho^20.
  VecX x = sim.positions(), gradient, step;
  std::vector<double> lengths;
  for (int i = 0; i < 80; ++i) {
    objective.evaluate(x, &gradient);
    step = -gradient;
    system.solve(step);
    lengths.push_back(step.norm());
    x += step;
  }
  const double observed = std::pow(lengths[79] / lengths[59], 1.0 / 20);
  EXPECT_NEAR(rho, observed, 0.05);
}

TEST(Chebyshev, C18APoorRhoNeverIncreasesG) {
  Simulation& sim = twistedBar();
  for (const char* rho : {"0.3", "0.9999"}) {
    const auto traces = sim.compareNextFrame({method("chebyshev", 30, rho)});
    const auto& its = traces[0].result.iterations;
    for (size_t k = 1; k < its.size(); ++k) ASSERT_LE(its[k].g, its[k - 1].g) << "rho " << rho << ", iteration " << k;
    EXPECT_LT(its.back().g, its.front().g);
  }
}

}  // namespace
}  // namespace qnsim
