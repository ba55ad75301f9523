// C35 (S2 Fig. 11): Projective Dynamics with the two-constraint strain-limit approximation of the
// polynomial material damps a small oscillation, in which the limit stays inactive, faster than the
// polynomial solved by ours. Fig. 11's own setup (experiments/strain_limit.h) at its quick length.
#include <gtest/gtest.h>

#include "core/scene/catalog.h"
#include "experiments/strain_limit.h"
#include "tests/claims_util.h"

namespace qnsim {
namespace {

double rate(const std::vector<TrajectoryResult>& results, const std::string& label) {
  for (const TrajectoryResult& r : results)
    if (r.method.label == label) {
      EXPECT_TRUE(r.stopped.empty()) << label << ": " << r.stopped;
      return energyDecayRate(r.frames);
    }
  ADD_FAILURE() << "no method " << label;
  return NAN;
}

TEST(StrainLimitClaims, C35PdApproximationDecaysFasterThanThePolynomial) {
  ExperimentOptions quick;
  quick.quick = true;
  const std::vector<TrajectoryResult> results = simulateTrajectories(strainLimitSetup(), quick);
  const double ours = rate(results, "polynomial/ours"), pd = rate(results, "strain_limit/pd"), approximation_ours = rate(results, "strain_limit/ours");
  std::printf("C35: energy decay rates (1/s): polynomial/ours %.4g, strain_limit/pd %.4g (ratio %.3g), strain_limit/ours %.4g\n", ours, pd,
              pd / ours, approximation_ours);
  EXPECT_GT(ours, 0) << "backward Euler damps every run a little";
  EXPECT_GT(pd, 1.5 * ours) << "the PD approximation decays faster";
}

// The premise: the oscillation stays inside [sigma_min, sigma_max], where the limit only adds rows to A.
TEST(StrainLimitClaims, C35TheOscillationKeepsTheStrainLimitInactive) {
  const TrajectorySetup setup = strainLimitSetup();
  const Method& pd = setup.methods.at(1);
  Scene scene = loadScene(catalogScenePath(setup.scene));
  scene.settings = applyMethod(scene.settings, pd);
  setup.edit_scene(pd, scene);
  const Material& material = *scene.bodies.at(0).materials.at(0).material;
  ASSERT_EQ(material.model(), "pd_strain_limit");
  Simulation sim(scene);
  setup.start(sim);
  double largest = test::maxStrain(sim.model(), sim.positions());
  for (int frame = 0; frame < setup.quick_frames; ++frame) {
    sim.step();
    largest = std::max(largest, test::maxStrain(sim.model(), sim.positions()));
  }
  std::printf("C35: largest |stretch - 1| over %d frames %.3f, limits [%.3f, %.3f]\n", setup.quick_frames, largest, material.get("sigma_min"),
              material.get("sigma_max"));
  EXPECT_LT(1 + largest, material.get("sigma_max"));
  EXPECT_GT(1 - largest, material.get("sigma_min"));
}

}  // namespace
}  // namespace qnsim
