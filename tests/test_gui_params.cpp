// The Solver panel is generated from the parameter registry: every parameter gets a widget that fits
// its type and range, groups come in declaration order, and edits go through the checked path.
#include <gtest/gtest.h>

#include <algorithm>

#include "app/gui/logic/compare_methods.h"
#include "app/gui/logic/param_binding.h"
#include "core/common/error.h"
#include "core/material/material.h"

namespace qnsim::gui {
namespace {

TEST(GuiParams, EveryRegistryParameterIsShownOnceInItsGroup) {
  size_t shown = 0;
  for (const ParamGroup& g : parameterGroups()) {
    EXPECT_FALSE(g.parameters.empty());
    for (const Parameter* p : g.parameters) {
      EXPECT_EQ(p->group, g.name);
      ++shown;
    }
  }
  EXPECT_EQ(shown, parameters().size());
  EXPECT_EQ(parameterGroups().front().name, parameters().front().group);
}

ParamWidget::Kind expectedKind(Parameter::Type type) {
  switch (type) {
    case Parameter::Type::Real: return ParamWidget::Kind::Real;
    case Parameter::Type::Integer: return ParamWidget::Kind::Integer;
    case Parameter::Type::Boolean: return ParamWidget::Kind::Boolean;
    case Parameter::Type::Choice: return ParamWidget::Kind::Choice;
    case Parameter::Type::Vector2: return ParamWidget::Kind::Vector2;
    case Parameter::Type::Vector3: return ParamWidget::Kind::Vector3;
  }
  return ParamWidget::Kind::Real;
}

TEST(GuiParams, WidgetsFollowTypeAndRange) {
  for (const SettingParameter& p : parameters()) {
    const ParamWidget w = widgetFor(p);
    EXPECT_EQ(w.kind, expectedKind(p.type)) << p.key;
    EXPECT_EQ(w.lo, p.min) << p.key;
    EXPECT_EQ(w.hi, p.max) << p.key;
    EXPECT_GT(w.drag_speed, 0.0f) << p.key;
  }
  EXPECT_TRUE(widgetFor(findParameter("time_step")).logarithmic);  // 1e-5 .. 1
  EXPECT_FALSE(widgetFor(findParameter("damping")).logarithmic);  // 0 .. 1
  EXPECT_TRUE(widgetFor(findParameter("contact_stiffness")).logarithmic);  // 0 .. 1e12
  // Material constants get their widgets from the same rule.
  const auto neo = makeMaterial("neo_hookean");
  EXPECT_TRUE(widgetFor(neo->parameter("mu")).logarithmic);
  EXPECT_FALSE(widgetFor(neo->parameter("inversion_j")).logarithmic);  // 1e-3 .. 0.9
  EXPECT_EQ(widgetFor(findParameter("solver.method")).kind, ParamWidget::Kind::Choice);
  EXPECT_EQ(parameterLabel(findParameter("solver.lbfgs_window")), "lbfgs window");
}

TEST(GuiParams, EditsAreCheckedLikeTheSceneFileAndSet) {
  Settings s;
  std::string message;
  EXPECT_TRUE(applyParameter(s, findParameter("solver.lbfgs_window"), 7, message));
  EXPECT_EQ(s.solver.lbfgs_window, 7);
  EXPECT_TRUE(message.empty());
  EXPECT_TRUE(applyParameter(s, findParameter("solver.method"), std::string("pd"), message));
  EXPECT_EQ(s.solver.method, SolverMethod::ProjectiveDynamics);

  const Settings before = s;
  EXPECT_FALSE(applyParameter(s, findParameter("time_step"), 5.0, message));
  EXPECT_NE(message.find("time_step"), std::string::npos);
  EXPECT_FALSE(applyParameter(s, findParameter("solver.stiffness_interval"), Vec2(1.5, 0.5), message));
  EXPECT_NE(message.find("x_start"), std::string::npos);
  EXPECT_EQ(s.time_step, before.time_step);
  EXPECT_EQ(s.solver.stiffness_interval, before.solver.stiffness_interval);
  for (const SettingParameter& p : parameters()) EXPECT_TRUE(applyParameter(s, p, p.get(Settings()), message)) << p.key << ": " << message;
}

TEST(GuiCompare, EveryRegisteredMethodAndVariantIsOffered) {
  const std::vector<CompareEntry> entries = defaultCompareEntries();
  for (const std::string& method : findParameter("solver.method").choices)
    EXPECT_TRUE(std::any_of(entries.begin(), entries.end(), [&](const CompareEntry& e) { return e.method == method; })) << method;
  for (const CompareVariantKey& variant : compareVariantKeys()) {
    const std::string& key = variant.key;
    for (const std::string& choice : findParameter(key).choices)
      EXPECT_TRUE(std::any_of(entries.begin(), entries.end(), [&](const CompareEntry& e) {
        return e.overrides.empty() ? choice == std::get<std::string>(findParameter(key).default_value)
                                   : e.overrides.back() == key + "=" + choice;
      })) << key << "=" << choice;
  }
}

TEST(GuiCompare, EntriesBecomeCheckedSettings) {
  CompareConfig config;
  config.iterations = 12;
  for (CompareEntry& e : config.entries) e.enabled = false;
  config.entries.push_back({"qn", {"solver.initial_hessian=rest_hessian"}, 7, true});
  config.entries.push_back({"newton", {}, -1, true});
  Settings current;
  current.solver.gradient_tolerance = 0.1;
  const std::vector<CompareMethod> methods = compareMethods(config, current);
  ASSERT_EQ(methods.size(), 2u);
  EXPECT_EQ(methods[0].label, "L-BFGS m=7, rest_hessian");
  EXPECT_EQ(methods[0].settings.lbfgs_window, 7);
  EXPECT_EQ(methods[0].settings.initial_hessian, InitialHessianKind::RestHessian);
  EXPECT_EQ(methods[0].settings.iterations, 12);
  EXPECT_EQ(methods[0].settings.gradient_tolerance, 0.0);
  EXPECT_EQ(methods[1].settings.method, SolverMethod::Newton);

  config.entries.back().window = -1;
  config.entries.front().enabled = true;
  config.entries.front().window = 100000;  // beyond solver.lbfgs_window's range: refused with its key
  try {
    compareMethods(config, current);
    ADD_FAILURE() << "an out-of-range window was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("solver.lbfgs_window"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace qnsim::gui
