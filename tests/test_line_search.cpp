// The strong Wolfe line search (core/solver/line_search.h): every accepted step satisfies both
// conditions, on functions that need a longer step, a shorter one, or neither; and in the frame loop
// it keeps g decreasing and converges like backtracking (the paper's Sec. 5 finding).
#include <gtest/gtest.h>

#include <cmath>

#include "core/solver/line_search.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

constexpr double kC1 = 0.3, kC2 = 0.9;

bool satisfiesStrongWolfe(const LinePoint& p, const LinePoint& start, double c2 = kC2) {
  return p.value <= start.value + kC1 * p.alpha * start.slope && std::abs(p.slope) <= -c2 * start.slope;
}

struct Case {
  const char* name;
  std::function<double(double)> f, df;
};

TEST(LineSearch, StrongWolfeHoldsAtTheAcceptedStep) {
  const std::vector<Case> cases = {
      {"minimum at 3 (the step must grow)", [](double a) { return (a - 3) * (a - 3); }, [](double a) { return 2 * (a - 3); }},
      {"minimum at 0.1 (the step must shrink)", [](double a) { return (a - 0.1) * (a - 0.1); }, [](double a) { return 2 * (a - 0.1); }},
      {"unit step accepted", [](double a) { return (a - 1) * (a - 1); }, [](double a) { return 2 * (a - 1); }},
      {"quartic valley", [](double a) { return std::pow(a - 0.4, 4) - a; }, [](double a) { return 4 * std::pow(a - 0.4, 3) - 1; }},
      {"bounded below, flattening", [](double a) { return -a * std::exp(-a / 5); }, [](double a) { return (a / 5 - 1) * std::exp(-a / 5); }},
  };
  for (const Case& c : cases) {
    int calls = 0;
    const LineFunction phi = [&](double alpha) {
      ++calls;
      return LinePoint{alpha, c.f(alpha), c.df(alpha)};
    };
    const LinePoint start{0.0, c.f(0.0), c.df(0.0)};
    ASSERT_LT(start.slope, 0) << c.name;
    for (const double c2 : {0.9, 0.1}) {
      calls = 0;
      const LineSearchResult r = strongWolfe(phi, start, kC1, c2, 30);
      EXPECT_TRUE(r.wolfe) << c.name << ", c2 " << c2;
      EXPECT_TRUE(satisfiesStrongWolfe(r.point, start, c2)) << c.name << ", c2 " << c2 << ": alpha " << r.point.alpha;
      EXPECT_EQ(r.trials, calls) << c.name;
    }
  }
}

TEST(LineSearch, WithoutAWolfePointInTheBudgetTheBestDecreaseIsTaken) {
  const LineFunction phi = [](double alpha) { return LinePoint{alpha, (alpha - 3) * (alpha - 3), 2 * (alpha - 3)}; };
  const LinePoint start{0.0, 9.0, -6.0};
  const LineSearchResult r = strongWolfe(phi, start, kC1, 0.01, 2);  // c2 = 0.01 needs alpha within 0.03 of 3
  EXPECT_FALSE(r.wolfe);
  EXPECT_EQ(r.trials, 2);
  EXPECT_LT(r.point.value, start.value);
}

// phi(alpha) = alpha^3 + alpha^2 - alpha (minimiser 1/3): the cubic through phi(0), phi'(0) and two
// rejected trials is phi itself; a quadratic phi is matched by the first backtrack's quadratic.
TEST(LineSearch, InterpolatedBacktrackFindsTheMinimiserOfACubicOrAQuadratic) {
  const auto phi = [](double a) { return a * a * a + a * a - a; };
  const LinePoint start{0.0, 0.0, -1.0}, first{2.0, phi(2.0), 0.0};
  EXPECT_NEAR(interpolatedBacktrack(start, {0.8, phi(0.8), 0.0}, &first), 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(interpolatedBacktrack({0.0, 0.09, -0.6}, {2.0, 2.89, 0.0}, nullptr), 0.3, 1e-12);  // (alpha - 0.3)^2
}

TEST(LineSearch, InterpolatedBacktrackStaysWithinItsSafeguards) {
  const LinePoint start{0.0, 1.0, -1.0};
  EXPECT_DOUBLE_EQ(interpolatedBacktrack(start, {2.0, 1e12, 0.0}, nullptr), 0.2) << "a huge increase: one tenth of the step";
  EXPECT_DOUBLE_EQ(interpolatedBacktrack(start, {2.0, 0.99, 0.0}, nullptr), 1.0) << "barely any decrease yet: at most half the step";
  EXPECT_DOUBLE_EQ(interpolatedBacktrack(start, {2.0, NAN, 0.0}, nullptr), 1.0) << "a non-finite trial: halve";
  EXPECT_DOUBLE_EQ(interpolatedBacktrack(start, {2.0, INFINITY, 0.0}, nullptr), 0.2);
  const LinePoint first{4.0, 1e6, 0.0};
  const double next = interpolatedBacktrack(start, {2.0, 50.0, 0.0}, &first);
  EXPECT_GE(next, 0.2);
  EXPECT_LE(next, 1.0);
}

// The interpolating search never increases g and converges like halving on a frame that backtracks
// (the spline sphere).
TEST(LineSearch, InterpolationInTheFrameLoopConvergesAndNeverIncreasesG) {
  Simulation sim(loadScene(catalogScenePath("sphere_spline_a")));
  for (int f = 0; f < 12; ++f) sim.step();
  const auto traces = sim.compareNextFrame({{"halving", {}}, {"interpolating", {"solver.line_search=interpolate"}}});
  const auto& its = traces[1].result.iterations;
  for (size_t k = 1; k < its.size(); ++k) {
    EXPECT_LE(its[k].g, its[k - 1].g) << "iteration " << k;
    EXPECT_TRUE(its[k].alpha == 1.0 || its[k].ls_trials > 1) << "a shorter step only after a rejected trial";
  }
  std::printf("sphere_spline_a frame 13: halving %d trials, error %.3g; interpolation %d trials, error %.3g\n", traces[0].result.ls_trials,
              traces[0].rel_error.back(), traces[1].result.ls_trials, traces[1].rel_error.back());
  EXPECT_LT(traces[1].rel_error.back(), 10 * traces[0].rel_error.back() + 1e-12);
}

TEST(LineSearch, WolfeInTheFrameLoopConvergesAndNeverIncreasesG) {
  Scene scene = loadScene(catalogScenePath("twisting_bar"));
  Simulation sim(scene);
  for (int f = 0; f < 3; ++f) sim.step();
  const auto traces = sim.compareNextFrame({{"armijo", {"solver.iterations=30"}}, {"wolfe", {"solver.iterations=30", "solver.line_search=wolfe"}}});
  const auto& its = traces[1].result.iterations;
  for (size_t k = 1; k < its.size(); ++k) {
    EXPECT_LE(its[k].g, its[k - 1].g) << "iteration " << k;
    EXPECT_GE(its[k].ls_trials, 1);
  }
  std::printf("relative error after 30 iterations: Armijo %.3g (%d trials), Wolfe %.3g (%d trials)\n", traces[0].rel_error.back(),
              traces[0].result.ls_trials, traces[1].rel_error.back(), traces[1].result.ls_trials);
  EXPECT_LT(traces[1].rel_error.back(), 10 * traces[0].rel_error.back()) << "comparable error reduction (paper Sec. 5)";
  EXPECT_LT(traces[1].rel_error.back(), 1e-4);
}

}  // namespace
}  // namespace qnsim
