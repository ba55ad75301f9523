// Numerical safety: a frame whose solve produces NaN or Inf is rolled back to the last good
// positions with zero velocity and a warning, instead of throwing or poisoning the state; the run goes
// on. Extreme drags (a target thrown far away at the sandbox's largest drag stiffness) stay finite.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <sstream>

#include "core/model/model.h"
#include "qnsim/simulation.h"
#include "tests/mesh_fixtures.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

Scene boxScene(const std::string& extra_settings = "") {
  return parseScene(test::boxSceneJson(R"({"model": "neo_hookean", "mu": 3e4, "lambda": 1e5})", extra_settings),
                    "inline.json");
}

// The sandbox's drag stiffness: the mean diagonal of A times its slider (app/gui/sandbox.cpp).
double typicalDiagonal(const Simulation& sim) {
  const double h = sim.settings().time_step;
  return (assembleLaplacian(sim.model()).diagonal() + sim.model().mass / (h * h)).mean();
}

TEST(NumericalSafety, ANonFiniteFrameIsRolledBackAndTheRunGoesOn) {
  for (const char* line_search : {"armijo", "none", "wolfe"}) {
    Scene scene = boxScene();
    applyOverride(scene, "solver.line_search", line_search);
    Simulation sim(scene);
    for (int f = 0; f < 3; ++f) sim.step();
    const VecX good = sim.positions();
    // A drag target at NaN makes g and its gradient NaN. SetDrag refuses one (NumericalSafety.
    // ANonFiniteDragIsRefused), so it is put straight into the state, as a bug inside could.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    internals(sim).state.drags = {{5, Vec3(nan, 0, 0), 1e4}};
    ASSERT_NO_THROW(sim.step()) << line_search;
    EXPECT_TRUE(sim.lastFrame().rolled_back) << line_search;
    EXPECT_EQ(sim.positions(), good) << line_search;
    EXPECT_EQ(sim.velocities().norm(), 0.0) << line_search;
    EXPECT_NE(sim.lastWarning().find("frame 4"), std::string::npos) << sim.lastWarning();
    EXPECT_EQ(sim.frame(), 4);
    EXPECT_TRUE(std::isfinite(sim.lastFrame().elastic_energy));  // g itself holds the NaN drag
    std::ostringstream header, row;
    writeFrameCsvHeader(header);
    writeFrameCsvRow(row, sim.lastFrame());
    const auto cells = [](const std::string& line) {
      std::vector<std::string> out;
      std::stringstream in(line.substr(0, line.size() - 1));
      for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
      return out;
    };
    const std::vector<std::string> names = cells(header.str()), values = cells(row.str());
    ASSERT_EQ(values.size(), names.size());
    EXPECT_EQ(values[std::find(names.begin(), names.end(), "rolled_back") - names.begin()], "1") << "the frame CSV's rolled_back";

    sim.apply(SetDrag{});
    sim.step();
    EXPECT_FALSE(sim.lastFrame().rolled_back) << line_search;
    EXPECT_TRUE(sim.lastWarning().empty());
    EXPECT_TRUE(sim.positions().allFinite());
    EXPECT_GT((sim.positions() - good).norm(), 0.0) << "the body moves again after the rollback";
  }
}

// A drag's vertex, target and stiffness are checked where every caller's drag goes through: the
// sandbox's mouse, Python's set_drag and a program's SetDrag all get this error, and the drag before
// stays.
TEST(NumericalSafety, ANonFiniteDragIsRefused) {
  Simulation sim(boxScene());
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  sim.apply(SetDrag{{{5, Vec3(0, 1, 0), 1e3}}});
  EXPECT_EQ(test::errorOf([&] { sim.apply(SetDrag{{{5, Vec3(nan, 0, 0), 1e4}}}); }), "drag: the target of vertex 5 is not finite");
  EXPECT_EQ(test::errorOf([&] { sim.apply(SetDrag{{{5, Vec3(0, 0, 0), inf}}}); }), "drag: the stiffness must be 0 or more and finite, got inf");
  EXPECT_EQ(test::errorOf([&] { sim.apply(SetDrag{{{5, Vec3(0, 0, 0), -1}}}); }), "drag: the stiffness must be 0 or more and finite, got -1");
  EXPECT_EQ(test::errorOf([&] { sim.apply(SetDrag{{{99, Vec3(0, 0, 0), 1}}}); }), "drag: vertex 99 does not exist (the model has 27)");
  ASSERT_EQ(sim.state().drags.size(), 1u);
  EXPECT_EQ(sim.state().drags[0].vertex, 5);
}

TEST(NumericalSafety, ExtremeDragsStayFinite) {
  Simulation sim(boxScene());
  const double stiffness = 20.0 * typicalDiagonal(sim);  // the sandbox slider's maximum
  for (const Vec3& target : {Vec3(1e6, -1e6, 3e5), Vec3(-1e9, 0, 0), Vec3(0, 1e12, 0)}) {
    sim.apply(Reset{});
    sim.apply(SetDrag{{{13, target, stiffness}, {14, target, stiffness}}});
    for (int f = 0; f < 20; ++f) {
      ASSERT_NO_THROW(sim.step());
      ASSERT_TRUE(sim.positions().allFinite()) << target.transpose() << " frame " << f;
      ASSERT_TRUE(std::isfinite(sim.lastFrame().g));
    }
    // Let go: the body comes back to a finite, bounded state.
    sim.apply(SetDrag{});
    for (int f = 0; f < 20; ++f) sim.step();
    EXPECT_TRUE(sim.positions().allFinite());
    EXPECT_TRUE(std::isfinite(sim.lastFrame().kinetic_energy));
  }
}

}  // namespace
}  // namespace qnsim
