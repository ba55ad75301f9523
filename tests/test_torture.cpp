// Torture runs at CI size: random registry edits between frames never crash or poison the
// state, and every catalog scene stays finite with its time step four times larger or smaller. The
// longer runs are measured by hand (docs/reliability.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "core/scene/catalog.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

// A random value inside the parameter's declared range; integers near the bottom of theirs (a box of
// 27 vertices with 10,000 Newton iterations per frame would only be slow).
ParameterValue randomValue(const Parameter& p, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto number = [&] {
    if (isLogarithmic(p)) return p.min * std::pow(p.max / p.min, u(rng));
    return p.min + (p.max - p.min) * u(rng);
  };
  switch (p.type) {
    case Parameter::Type::Real: return number();
    case Parameter::Type::Integer: return static_cast<int>(p.min + std::floor(std::min(p.max - p.min + 1, 20.0) * u(rng)));
    case Parameter::Type::Boolean: return u(rng) < 0.5;
    case Parameter::Type::Choice: return p.choices[static_cast<size_t>(u(rng) * p.choices.size()) % p.choices.size()];
    case Parameter::Type::Vector2: {
      Vec2 v(number(), number());
      if (v[0] > v[1]) std::swap(v[0], v[1]);  // intervals are ordered
      return v;
    }
    case Parameter::Type::Vector3: return Vec3(number(), number(), number());
  }
  return p.default_value;
}

TEST(Torture, RandomRegistryEditsBetweenFramesNeverCrash) {
  std::mt19937 rng(2026);
  Simulation sim(parseScene(test::boxSceneJson(R"({"model": "corotated", "mu": 3e4, "lambda": 1e5})",
                                               R"(, "colliders": [{"type": "plane", "point": [0, -1, 0]}])"),
                            "inline.json"));
  const std::vector<SettingParameter>& all = parameters();
  int accepted = 0, refused = 0, rolled_back = 0;
  for (int frame = 0; frame < 400; ++frame) {
    const SettingParameter& p = all[rng() % all.size()];
    ParameterValue value = randomValue(p, rng);
    if (p.key == "threads") value = std::min(std::get<int>(value), 4);
    const Settings before = sim.settings();
    try {
      sim.apply(SetParameter{p.key, value});
      ++accepted;
    } catch (const Error&) {
      ++refused;  // a combination the checker refuses (e.g. an interval with a bad order) is fine
      EXPECT_TRUE(p.get(sim.settings()) == p.get(before)) << p.key << ": a refused edit changes nothing";
      continue;
    }
    ASSERT_NO_THROW(sim.step()) << p.key << " at frame " << frame;
    ASSERT_TRUE(sim.positions().allFinite()) << p.key << " at frame " << frame;
    rolled_back += sim.lastFrame().rolled_back;
  }
  EXPECT_GT(accepted, 300) << refused << " refused";
  std::printf("random edits: %d accepted, %d refused by the checker, %d frames rolled back\n", accepted, refused, rolled_back);
}

class TimeStepTorture : public ::testing::TestWithParam<std::string> {};

TEST_P(TimeStepTorture, FiniteWithTheTimeStepFourTimesLargerOrSmaller) {
  for (double factor : {4.0, 0.25}) {
    Scene scene = loadScene(catalogScenePath(GetParam()));
    scene.settings.time_step *= factor;
    Simulation sim(scene);
    for (int f = 0; f < 4; ++f) {
      ASSERT_NO_THROW(sim.step()) << "h x " << factor << ", frame " << f + 1;
      ASSERT_TRUE(sim.positions().allFinite()) << "h x " << factor << ", frame " << f + 1;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, TimeStepTorture, ::testing::ValuesIn(catalogSceneNames()),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

}  // namespace
}  // namespace qnsim
