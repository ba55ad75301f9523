// The Solver panel is generated from the parameter registry: every parameter gets a widget that fits
// its type and range, groups come in declaration order, and edits go through the checked path.
#include <gtest/gtest.h>

#include "app/gui/logic/param_binding.h"

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
  for (const Parameter& p : parameters()) {
    const ParamWidget w = widgetFor(p);
    EXPECT_EQ(w.kind, expectedKind(p.type)) << p.key;
    EXPECT_EQ(w.lo, p.min) << p.key;
    EXPECT_EQ(w.hi, p.max) << p.key;
    EXPECT_GT(w.drag_speed, 0.0f) << p.key;
  }
  EXPECT_TRUE(widgetFor(findParameter("time_step")).logarithmic);  // 1e-5 .. 1
  EXPECT_FALSE(widgetFor(findParameter("damping")).logarithmic);  // starts at 0
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
  for (const Parameter& p : parameters()) EXPECT_TRUE(applyParameter(s, p, p.get(Settings()), message)) << p.key << ": " << message;
}

}  // namespace
}  // namespace qnsim::gui
