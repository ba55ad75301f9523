// Vertex Block Descent and Jacobi-Chebyshev descent (core/solver/vbd_solver.h): each vertex's 3x3 Newton
// step decreases g; sweeps are the same bits on any thread count; both reach the exact solution of a
// frame; the acceleration does what it should; the Jacobi check never keeps a rise of g.
#include <gtest/gtest.h>

#include "core/sim/simulation_impl.h"
#include "core/solver/vbd_solver.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

using test::boxOnGround;

// On a frame's objective, from a perturbed state: moving any one vertex by its block's Newton step
// (everything else held) lowers g, the step being the minimiser of a convex quadratic model of g_v.
TEST(Vbd, EachVertexsNewtonStepDecreasesG) {
  Simulation sim(boxOnGround({"solver.method=vbd"}));
  sim.step();
  Objective& objective = test::objectiveOf(sim);
  std::mt19937 rng(7);
  const VecX x = test::perturbed(sim.positions(), 0.02, rng);
  VertexBlocks blocks(objective, EigenvalueFilter::Clamp);
  blocks.index();
  const double g = objective.evaluate(x, nullptr);
  int decreased = 0;
  for (int v = 0; v < sim.model().vertexCount(); ++v) {
    const VertexBlocks::Block b = blocks.block(x, v);
    VecX moved = x;
    vertex(moved, v) -= b.hessian.ldlt().solve(b.gradient);
    const double after = objective.evaluate(moved, nullptr);
    EXPECT_LE(after, g) << "vertex " << v;
    decreased += after < g;
  }
  EXPECT_EQ(decreased, sim.model().vertexCount());
}

// A sweep over the colours, and whole frames of vbd and jacobi, give the same bits on 1 and 2 threads.
TEST(Vbd, SweepsAreTheSameBitsOnAnyThreadCount) {
  for (const char* method : {"vbd", "jacobi"}) {
    VecX result[2];
    for (int threads : {1, 2}) {
      Simulation sim(boxOnGround({std::string("solver.method=") + method, "threads=" + std::to_string(threads), "solver.vbd_rho=0.8"}));
      for (int f = 0; f < 5; ++f) sim.step();
      result[threads - 1] = sim.positions();
    }
    ASSERT_TRUE(result[0].allFinite()) << method;
    EXPECT_TRUE(result[0] == result[1]) << method << ": |difference| " << (result[0] - result[1]).norm();
  }
}

// Enough sweeps reach the exact minimiser of a frame (resting on the ground, so contacts act too).
TEST(Vbd, VbdAndJacobiReachTheExactSolution) {
  for (const char* method : {"vbd", "jacobi"}) {
    Simulation sim(boxOnGround({std::string("solver.method=") + method, "solver.iterations=400"}));
    sim.setReferenceEnabled(true);
    for (int f = 0; f < 6; ++f) {
      sim.step();
      EXPECT_LT(sim.lastRelativeErrors().back(), 1e-6) << method << ", frame " << f + 1;
    }
  }
}

// On a stiff bar's frame (the shaking bar, where plain sweeps converge slowly) 40 accelerated sweeps
// (rho = 0.9) end well below 40 plain ones.
TEST(Vbd, ChebyshevAccelerationConvergesFasterOnAStiffBar) {
  Scene scene = loadScene(test::sourceDir() / "scenes" / "shaking_bar.json");
  scene.settings.threads = 1;
  Simulation sim(scene);
  for (int f = 0; f < 5; ++f) sim.step();
  const auto error = [&](double rho) {
    const std::vector<MethodTrace> t = sim.compareNextFrame(
        {{"vbd", {"solver.method=vbd", "solver.iterations=40", "solver.gradient_tolerance=0", "solver.vbd_rho=" + std::to_string(rho)}}});
    return t[0].rel_error.back();
  };
  const double plain = error(0.0), accelerated = error(0.9);
  std::printf("relative error after 40 sweeps: plain %.3g, rho = 0.9 %.3g\n", plain, accelerated);
  EXPECT_LT(accelerated, 0.8 * plain);
}

// Jacobi's check (Wang and Yang): the g it keeps at every eighth iteration never rises, even with an
// over-eager acceleration that makes the raw iterates overshoot.
TEST(Vbd, JacobisCheckNeverKeepsARiseOfG) {
  Simulation sim(boxOnGround({"solver.method=jacobi", "solver.iterations=64", "solver.jacobi_rho=0.9999", "solver.chebyshev_delay=2"}));
  for (int f = 0; f < 4; ++f) {
    sim.step();
    const auto& its = sim.lastSolve().iterations;
    double kept = its.front().g;
    for (size_t k = 8; k < its.size(); k += 8) {
      EXPECT_LE(its[k].g, kept) << "frame " << f + 1 << ", iteration " << k;
      kept = its[k].g;
    }
    EXPECT_LE(its.back().g, its.front().g);
  }
}

// VBD's adaptive initial guess (integrator.h): a falling body, whose last step accelerated by g, starts at
// y; a body resting on the ground starts where it rests (x + h v), not sunk by h^2 g into its support.
TEST(Vbd, TheAdaptiveGuessIsYWhileFallingAndTheRestingPositionAtRest) {
  Scene falling = boxOnGround({"solver.method=vbd", "solver.initial_guess=adaptive", "damping=0"});
  falling.colliders.clear();
  falling.bodies.front().handles.clear();
  Simulation fall(falling);
  for (int f = 0; f < 3; ++f) fall.step();
  const Prediction& p = internals(fall).prediction;
  EXPECT_LE((p.adaptive_guess - p.y).lpNorm<Eigen::Infinity>(),
            1e-2 * fall.settings().gravity.norm() * std::pow(fall.settings().time_step, 2));

  Simulation rest(boxOnGround({"solver.method=newton", "solver.initial_guess=adaptive"}));  // the guess is the method's start, any method
  for (int f = 0; f < 30; ++f) rest.step();
  const VecX before = rest.positions();
  rest.step();
  const Prediction& q = internals(rest).prediction;
  const double sunk = rest.settings().gravity.norm() * std::pow(rest.settings().time_step, 2);
  EXPECT_NEAR((q.y - before).lpNorm<Eigen::Infinity>(), sunk, 0.1 * sunk) << "y sinks by h^2 |g|";
  EXPECT_LT((q.adaptive_guess - rest.positions()).lpNorm<Eigen::Infinity>(), 0.1 * sunk) << "the guess is where the box rests";
}

// solver.initial_guess=previous: the frame's solve starts where the last frame ended (x_n), so the first
// iterate's g is g(x_n), not g(y) for a body in flight; the minimiser is the same as from y.
TEST(InitialGuess, PreviousStartsWhereTheLastFrameEndedAndReachesTheSameMinimiser) {
  const std::vector<std::string> exact = {"solver.method=newton", "solver.iterations=30", "solver.gradient_tolerance=1e-12"};
  std::vector<std::string> from_previous = exact;
  from_previous.push_back("solver.initial_guess=previous");
  const std::string material = R"({"model": "corotated", "mu": 2e4, "lambda": 5e4})";
  Simulation sim(test::thrownBox(material, 3.0, from_previous)), reference(test::thrownBox(material, 3.0, exact));
  sim.step(), reference.step();
  const VecX x_n = sim.positions();
  const std::vector<MethodTrace> traces = sim.compareNextFrame({{"from_y", {"solver.initial_guess=inertia"}}, {"from_x_n", {}}});
  const double g_x_n = test::objectiveOf(sim).evaluate(x_n, nullptr);  // the compared frame's objective, still set
  EXPECT_NEAR(traces[1].result.iterations.front().g, g_x_n, 1e-12 * std::abs(g_x_n));
  EXPECT_GT(std::abs(traces[1].result.iterations.front().g - traces[0].result.iterations.front().g), 1e-3 * std::abs(g_x_n))
      << "x_n is not y in flight";
  sim.step(), reference.step();
  EXPECT_LE((sim.positions() - reference.positions()).lpNorm<Eigen::Infinity>(), 1e-9);
}

}  // namespace
}  // namespace qnsim
