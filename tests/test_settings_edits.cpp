// Every parameter's declared effect (qnsim/parameter.h) is what Simulation::apply does: a simulation
// edited live steps exactly like one built fresh with the same settings, and an edit declared live
// refactors nothing.
#include <gtest/gtest.h>

#include "qnsim/parameters.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

// The test box lying half through a ground plane, so contact and friction settings act too.
Scene groundedBox() {
  Scene scene = parseScene(test::boxSceneJson(R"({"model": "neo_hookean"})", R"(, "colliders": [{"type": "plane", "name": "ground"}])"),
                           "inline.json");
  scene.settings.threads = 1;
  return scene;
}

// Values other than the default, within range: every other choice, a nearby number otherwise.
std::vector<ParameterValue> editsOf(const SettingParameter& p) {
  const ParameterValue& d = p.default_value;
  switch (p.type) {
    case Parameter::Type::Choice: {
      std::vector<ParameterValue> out;
      for (const std::string& c : p.choices)
        if (c != std::get<std::string>(d)) out.push_back(c);
      return out;
    }
    case Parameter::Type::Real: {
      const double v = std::get<double>(d);
      return {v != 0 ? 0.8 * v : p.min + 0.05 * (p.max - p.min)};
    }
    case Parameter::Type::Integer: return {std::get<int>(d) + 1};
    case Parameter::Type::Boolean: return {!std::get<bool>(d)};
    case Parameter::Type::Vector2: return {Vec2(0.8 * std::get<Vec2>(d))};
    case Parameter::Type::Vector3: return {Vec3(0.8 * std::get<Vec3>(d))};
  }
  return {};
}

VecX trajectoryEnd(Simulation& sim) {
  for (int f = 0; f < 3; ++f) sim.step();
  return sim.positions();
}

TEST(SettingsEdits, EveryLiveEditMatchesAFreshSimulation) {
  int edits = 0;
  for (const SettingParameter& p : parameters()) {
    for (const ParameterValue& value : editsOf(p)) {
      Scene fresh_scene = groundedBox();
      setParameter(fresh_scene.settings, p, value);
      Simulation edited(groundedBox()), fresh(fresh_scene);
      edited.apply(SetParameter{p.key, value});
      const VecX a = trajectoryEnd(edited), b = trajectoryEnd(fresh);
      ASSERT_TRUE(a.allFinite()) << p.key << " = " << formatParameter(p, value);
      EXPECT_TRUE(a == b) << p.key << " = " << formatParameter(p, value) << ": |difference| " << (a - b).norm();
      ++edits;
    }
  }
  EXPECT_GT(edits, static_cast<int>(parameters().size()));
}

TEST(SettingsEdits, ApplyDoesWhatTheParameterDeclares) {
  for (const SettingParameter& p : parameters())
    for (const ParameterValue& value : editsOf(p)) {
      Simulation sim(groundedBox());
      EXPECT_EQ(sim.apply(SetParameter{p.key, value}).effect, p.effect) << p.key;
      EXPECT_EQ(sim.apply(SetParameter{p.key, value}).effect, Effect::Live) << p.key << ": the same value again changes nothing";
      EXPECT_TRUE(sim.value(p.key) == value) << p.key;
    }
  Simulation sim(groundedBox());
  EXPECT_EQ(sim.apply(SetParameter{"time_step", std::string("0.02")}).effect, Effect::NewSystemMatrix) << "text, as --set gives it";
  EXPECT_EQ(std::get<double>(sim.value("time_step")), 0.02);
}

TEST(SettingsEdits, LiveEditsRefactorNothing) {
  Simulation untouched(groundedBox());
  untouched.step();
  const long factorizations = untouched.lastFrame().factorizations;
  for (const SettingParameter& p : parameters()) {
    if (p.effect != Effect::Live) continue;
    for (const ParameterValue& value : editsOf(p)) {
      Simulation sim(groundedBox());
      sim.apply(SetParameter{p.key, value});
      sim.step();
      EXPECT_EQ(sim.lastFrame().factorizations, factorizations) << p.key;
    }
  }
  Simulation refactored(groundedBox());
  refactored.apply(SetParameter{"time_step", 0.02});
  refactored.step();
  EXPECT_GT(refactored.lastFrame().factorizations, factorizations);
}

}  // namespace
}  // namespace qnsim
