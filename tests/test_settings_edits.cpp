// Every parameter's declared effect (core/params/parameter.h) is what Simulation::setSettings does: a
// simulation edited live steps exactly like one built fresh with the same settings, and an edit
// declared live refactors nothing.
#include <gtest/gtest.h>

#include "core/params/parameters.h"
#include "core/sim/simulation.h"
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
      edited.setSettings(fresh_scene.settings);
      const VecX a = trajectoryEnd(edited), b = trajectoryEnd(fresh);
      ASSERT_TRUE(a.allFinite()) << p.key << " = " << formatParameter(p, value);
      EXPECT_TRUE(a == b) << p.key << " = " << formatParameter(p, value) << ": |difference| " << (a - b).norm();
      ++edits;
    }
  }
  EXPECT_GT(edits, static_cast<int>(parameters().size()));
}

TEST(SettingsEdits, EditEffectIsTheLargestDeclaredEffectOfWhatChanged) {
  const Settings defaults;
  for (const SettingParameter& p : parameters())
    for (const ParameterValue& value : editsOf(p)) {
      Settings s;
      setParameter(s, p, value);
      EXPECT_EQ(editEffect(defaults, s), p.effect) << p.key;
    }
  Settings both;
  setParameter(both, "damping", "0.1");
  setParameter(both, "time_step", "0.02");
  EXPECT_EQ(editEffect(defaults, both), Effect::NewSystemMatrix);
  EXPECT_EQ(editEffect(defaults, defaults), Effect::Live);
}

TEST(SettingsEdits, LiveEditsRefactorNothing) {
  Simulation untouched(groundedBox());
  untouched.step();
  const long factorizations = untouched.lastFrame().factorizations;
  for (const SettingParameter& p : parameters()) {
    if (p.effect != Effect::Live) continue;
    for (const ParameterValue& value : editsOf(p)) {
      Simulation sim(groundedBox());
      Settings s = sim.settings();
      setParameter(s, p, value);
      sim.setSettings(s);
      sim.step();
      EXPECT_EQ(sim.lastFrame().factorizations, factorizations) << p.key;
    }
  }
  Simulation refactored(groundedBox());
  Settings s = refactored.settings();
  setParameter(s, "time_step", "0.02");
  refactored.setSettings(s);
  refactored.step();
  EXPECT_GT(refactored.lastFrame().factorizations, factorizations);
}

}  // namespace
}  // namespace qnsim
