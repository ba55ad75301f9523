// The Solver panel is generated from the parameter registry: every parameter gets a widget that fits
// its type and range, groups come in declaration order, and edits go through the checked path.
#include <gtest/gtest.h>

#include <algorithm>

#include "app/gui/logic/compare_methods.h"
#include "app/gui/logic/param_binding.h"
#include "app/gui/logic/pending_edits.h"
#include "qnsim/error.h"
#include "qnsim/material.h"

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
  EXPECT_TRUE(widgetFor(neo->parameter("inversion_j")).logarithmic);  // 1e-9 .. 0.9
  EXPECT_EQ(widgetFor(findParameter("solver.method")).kind, ParamWidget::Kind::Choice);
  EXPECT_EQ(parameterLabel(findParameter("solver.lbfgs_window")), "lbfgs window");
}

// The panels show what they sent until the snapshot has it, newest first, and then the snapshot's value.
TEST(GuiParams, PendingEditsShowOverTheSnapshotUntilApplied) {
  PendingEdits pending;
  const Settings snapshot;
  pending.sent(1, "solver.lbfgs_window", 7);
  pending.sent(2, "solver.lbfgs_window", 8);
  pending.sent(3, "solver.method", std::string("pd"));
  EXPECT_EQ(pending.over(snapshot).solver.lbfgs_window, 8);
  EXPECT_EQ(pending.over(snapshot).solver.method, SolverMethod::ProjectiveDynamics);
  pending.applied(2);
  EXPECT_EQ(pending.over(snapshot).solver.lbfgs_window, snapshot.solver.lbfgs_window) << "the snapshot shows edit 2 now";
  EXPECT_EQ(pending.over(snapshot).solver.method, SolverMethod::ProjectiveDynamics);
  pending.applied(3);
  EXPECT_EQ(pending.over(snapshot).solver.method, snapshot.solver.method);

  const std::shared_ptr<const Material> shown = makeMaterial("neo_hookean"), softer = makeMaterial("corotated");
  pending.sent(4, "rubber", softer);
  EXPECT_EQ(pending.material("rubber", shown), softer);
  EXPECT_EQ(pending.material("steel", shown), shown);
  pending.applied(4);
  EXPECT_EQ(pending.material("rubber", shown), shown);
}

TEST(GuiCompare, EveryRegisteredMethodAndVariantIsOffered) {
  const std::vector<CompareEntry> entries = defaultCompareEntries();
  for (const std::string& method : findParameter("solver.method").choices)
    EXPECT_TRUE(std::any_of(entries.begin(), entries.end(), [&](const CompareEntry& e) { return e.method == method; })) << method;
  for (const CompareVariantKey& variant : compareVariantKeys()) {
    const std::string& key = variant.key;
    for (const std::string& choice : findParameter(key).choices)
      EXPECT_TRUE(std::any_of(entries.begin(), entries.end(), [&](const CompareEntry& e) {
        return e.edits.empty() ? choice == std::get<std::string>(findParameter(key).default_value) : e.edits.back() == key + "=" + choice;
      })) << key << "=" << choice;
  }
}

TEST(GuiCompare, EntriesBecomeCheckedMethods) {
  CompareConfig config;
  config.iterations = 12;
  for (CompareEntry& e : config.entries) e.enabled = false;
  config.entries.push_back({"qn", {"solver.initial_hessian=rest_hessian"}, 7, true});
  config.entries.push_back({"newton", {}, -1, true});
  Settings current;
  current.solver.gradient_tolerance = 0.1;
  const std::vector<Method> methods = compareMethods(config);
  ASSERT_EQ(methods.size(), 2u);
  EXPECT_EQ(methods[0].label, "lbfgs_m7, rest_hessian");
  const Settings first = applyMethod(current, methods[0]), second = applyMethod(current, methods[1]);
  EXPECT_EQ(first.solver.lbfgs_window, 7);
  EXPECT_EQ(first.solver.initial_hessian, InitialHessianKind::RestHessian);
  EXPECT_EQ(first.solver.iterations, 12);
  EXPECT_EQ(first.solver.gradient_tolerance, 0.0);
  EXPECT_EQ(second.solver.method, SolverMethod::Newton);

  config.entries.back().window = -1;
  config.entries.front().enabled = true;
  config.entries.front().window = 100000;  // beyond solver.lbfgs_window's range: refused with its key
  try {
    compareMethods(config);
    ADD_FAILURE() << "an out-of-range window was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("solver.lbfgs_window"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace qnsim::gui
