// Anderson-accelerated Projective Dynamics and ADMM (core/solver/anderson_solver.h, admm_solver.h):
// Anderson's safeguard never accepts an increase of g, its first step is PD's, and on a PD material it
// converges faster than PD; ADMM's local step is the proximal point of the material, and ADMM reaches
// the exact solution of a frame, with and without fibres; both are the same bits on any thread count.
#include <gtest/gtest.h>

#include "core/material/valanis_landel.h"
#include "core/solver/admm_solver.h"
#include "qnsim/simulation.h"
#include "tests/material_fixtures.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

using test::boxOnGround;

// g over each frame's iterates never rises, for PD energies and for materials far from them (the
// polynomial of the squirrel, a stiff Neo-Hookean), on the catalog's twisting bar too, where the
// accelerated iterates are sometimes refused.
TEST(Anderson, TheSafeguardNeverAcceptsAnIncrease) {
  std::vector<Scene> scenes = {boxOnGround({}, R"({"model": "arap", "mu": 3e4})"), boxOnGround({}, R"({"model": "polynomial", "mu4": 3e5})"),
                               boxOnGround({"gravity=0,-80,0"}, R"({"model": "neo_hookean", "mu": 3e4, "lambda": 3e6})"),
                               loadScene(test::sourceDir() / "scenes" / "twisting_bar.json")};
  int refused = 0;
  for (Scene& scene : scenes) {
    applyOverride(scene, "solver.method=anderson");
    applyOverride(scene, "solver.iterations=40");
    Simulation sim(scene);
    for (int f = 0; f < 8; ++f) {
      sim.step();
      const auto& its = sim.lastSolve().iterations;
      for (size_t k = 1; k < its.size(); ++k) EXPECT_LE(its[k].g, its[k - 1].g) << scene.name << ", frame " << f + 1 << ", iteration " << k;
      for (size_t k = 1; k < its.size(); ++k) refused += its[k].ls_trials > 1;
    }
  }
  EXPECT_GT(refused, 0) << "the safeguard was exercised";
}

// Without history the first iterate is the plain PD step x + d, d = -A^-1 grad g.
TEST(Anderson, ItsFirstIterateIsTheProjectiveDynamicsStep) {
  Simulation sim(boxOnGround({}));
  sim.step();
  const auto traces = sim.compareNextFrame(
      {{"anderson", {"solver.method=anderson", "solver.iterations=1"}}, {"pd", {"solver.method=pd", "solver.iterations=1"}}});
  EXPECT_NEAR(traces[0].result.iterations[1].g, traces[1].result.iterations[1].g, 1e-12 * std::abs(traces[1].result.iterations[1].g));
}

// On a PD material (ARAP) from the same state, 30 Anderson iterations end far below 30 PD iterations.
TEST(Anderson, ConvergesFasterThanProjectiveDynamicsOnAPdMaterial) {
  Simulation sim(loadScene(test::sourceDir() / "scenes" / "squirrel_head_stiff_pd.json"));
  for (int f = 0; f < 5; ++f) sim.step();
  const auto traces = sim.compareNextFrame({{"anderson", {"solver.method=anderson", "solver.iterations=30", "solver.gradient_tolerance=0"}},
                                            {"pd", {"solver.method=pd", "solver.iterations=30", "solver.gradient_tolerance=0"}}});
  std::printf("after 30 iterations: anderson %.3g, pd %.3g\n", traces[0].rel_error.back(), traces[1].rel_error.back());
  EXPECT_LT(traces[0].rel_error.back(), 0.1 * traces[1].rel_error.back());
}

// Z = argmin Psi(Z) + k/2 |Z - T|^2 is stationary, P(Z) + k (Z - T) = 0, and no worse than T itself, for
// every material and for stretched, compressed and inverted T (where the minimiser may not be inverted).
TEST(Admm, TheLocalStepIsTheMaterialsProximalPoint) {
  std::mt19937 rng(11);
  for (const test::NamedMaterial& m : test::allSolidMaterials()) {
    for (bool inverted : {false, true})
      for (int i = 0; i < 5; ++i) {
        const Mat3 T = test::randomDeformation(rng, inverted);
        const double k = 4.0 + 3.0 * i;  // the materials' constants are of order 1-10
        const Mat3 Z = materialProximal(*m.material, Fiber{}, k, T);
        Mat3 P;
        const double at_z = m.material->energyAndStress(Z, &P) + 0.5 * k * (Z - T).squaredNorm();
        EXPECT_LE(at_z, m.material->energyAndStress(T, nullptr) + 1e-12) << m.label;
        EXPECT_LE((P + k * (Z - T)).norm(), 1e-9 * (P.norm() + k)) << m.label << (inverted ? ", inverted" : "");
      }
  }
}

TEST(Admm, ReachesTheExactSolutionOfAFrame) {
  for (const char* material : {R"({"model": "neo_hookean", "mu": 3e4, "lambda": 1e5})", R"({"model": "arap", "mu": 3e4})"}) {
    Simulation sim(boxOnGround({"solver.method=admm", "solver.iterations=300"}, material));
    sim.setReferenceEnabled(true);
    for (int f = 0; f < 5; ++f) {
      sim.step();
      EXPECT_LT(sim.lastRelativeErrors().back(), 1e-6) << material << ", frame " << f + 1;
    }
  }
}

// With a fibre the local step carries the fibre's energy too; ADMM still reaches the exact solution.
TEST(Admm, ReachesTheExactSolutionWithAFibre) {
  Simulation sim(boxOnGround({"solver.method=admm", "solver.iterations=300"},
                     R"({"model": "corotated", "mu": 3e4, "lambda": 1e5, "fiber": {"direction": [1, 1, 0], "kappa": 5e4}})"));
  sim.setReferenceEnabled(true);
  for (int f = 0; f < 3; ++f) {
    sim.step();
    EXPECT_LT(sim.lastRelativeErrors().back(), 1e-6) << "frame " << f + 1;
  }
}

TEST(AndersonAndAdmm, AreTheSameBitsOnAnyThreadCount) {
  for (const char* method : {"anderson", "admm"}) {
    VecX result[2];
    for (int threads : {1, 2}) {
      Simulation sim(boxOnGround({std::string("solver.method=") + method, "threads=" + std::to_string(threads)}));
      for (int f = 0; f < 5; ++f) sim.step();
      result[threads - 1] = sim.positions();
    }
    ASSERT_TRUE(result[0].allFinite()) << method;
    EXPECT_TRUE(result[0] == result[1]) << method << ": |difference| " << (result[0] - result[1]).norm();
  }
}

}  // namespace
}  // namespace qnsim
