// qnsim_roofline's pieces: the phase counts of a scene follow from its sizes and its run (never a
// timing assertion), the bandwidth of a working set is the one measured at the next size up, and the
// peak's chains compute what they say.
#include <gtest/gtest.h>

#include "bench/roofline.h"
#include "bench/roofline_kernels.h"
#include "core/common/simd.h"
#include "core/scene/catalog.h"
#include "qnsim/scene.h"
#include "qnsim/simulation.h"

namespace qnsim {
namespace {

TEST(Roofline, CountsEachPhaseOfTheTwistingBarFromItsSizesAndItsRun) {
  const std::string path = catalogScenePath("twisting_bar").string();
  const std::vector<bench::PhaseCost> phases = bench::scenePhases(path, 1, 3);
  ASSERT_EQ(phases.size(), 3u);
  Simulation sim(loadScene(path));
  const double n = sim.model().vertexCount(), T = sim.model().tets.size();
  const bench::PhaseCost& elements = phases[0];
  EXPECT_EQ(elements.bytes, T * 312 + n * 92);
  EXPECT_EQ(elements.flops, T * 256 + n * 17) << "the twisting bar is Neo-Hookean: its flops are counted";
  EXPECT_GE(elements.operations_per_frame, 2.0) << "one evaluation at the frame's start and one per trial";
  EXPECT_EQ(phases[1].operations_per_frame, 10.0) << "one solve per iteration";
  EXPECT_GT(phases[1].bytes, 24 * T) << "L has more entries than the tets have edges";
  EXPECT_GT(phases[2].bytes, 96 * n);
  for (const bench::PhaseCost& p : phases) EXPECT_GT(p.measured_us, 0.0) << p.phase;
}

// The squirrel head's quartic polynomial (flesh and teeth): the kernel's fixed part, E^3 and E^4, one
// term, no lambda, 231 + 30 * 2 + 39 = 330 flops per tet, plus 87 per polar step, which near rest
// takes three to five steps.
TEST(Roofline, CountsTheStrainPolynomialKernelsFlopsWithItsPolarSteps) {
  const std::string path = catalogScenePath("squirrel_head").string();
  const std::vector<bench::PhaseCost> phases = bench::scenePhases(path, 1, 2);
  Simulation sim(loadScene(path));
  const double n = sim.model().vertexCount(), T = sim.model().tets.size();
  const double per_tet = (phases[0].flops - n * 17) / T - 12;
  EXPECT_GE(per_tet, 330 + 87 * 3.0);
  EXPECT_LE(per_tet, 330 + 87 * 5.0);
}

TEST(Roofline, MaterialsWithoutACountAreShownWithoutFlops) {
  const std::vector<bench::PhaseCost> phases = bench::scenePhases(catalogScenePath("sphere_spline_a").string(), 1, 2);  // spline
  EXPECT_EQ(phases[0].flops, 0.0);
  EXPECT_NE(bench::phaseTable("sphere_spline_a", phases, bench::Roofs{1, 10.0, {{1e6, 50.0}}}).find("—"), std::string::npos);
}

TEST(Roofline, AWorkingSetTakesTheBandwidthMeasuredAtTheNextSizeUp) {
  const bench::Roofs roofs{2, 40.0, {{1e4, 200.0}, {1e6, 100.0}, {1e8, 20.0}}};
  EXPECT_EQ(roofs.bandwidthFor(5e3), 200.0);
  EXPECT_EQ(roofs.bandwidthFor(1e6), 100.0);
  EXPECT_EQ(roofs.bandwidthFor(2e6), 20.0);
  EXPECT_EQ(roofs.bandwidthFor(1e9), 20.0);
}

// The eight-lane chains are the four-lane ones twice over: the same twelve chains per lane, summed.
TEST(Roofline, ThePeaksEightLaneChainsAreTheFourLaneOnesTwice) {
  if (!avx512Available()) GTEST_SKIP() << "this process runs no AVX-512 kernels";
  const double four = bench::fmaChainsAvx2(1000), eight = bench::fmaChainsAvx512(1000);
  EXPECT_NEAR(eight, 2 * four, 1e-12 * four);
  EXPECT_GT(four, 12 * 4 * 0.99);  // four lanes of twelve chains, each near its start 1 + 1e-3 k
}

}  // namespace
}  // namespace qnsim
