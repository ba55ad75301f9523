// Claim C28 (Fig. 18): the corotated hippo (mu = 20, lambda = 100, L-BFGS m = 5) recovers from a
// seeded random state with many inverted tets -- every vertex uniform in its rest bounding box, at
// rest, no gravity, no attachments -- with no inversion handling beyond the corotated energy itself.
// Pass rules: no NaN; at least 30 % of the tets inverted at the start and
// none after 300 frames; RMS distance to the rest shape after the best rigid alignment at most 1 % of
// the bounding-box diagonal; elastic energy at most 1e-4 of the initial.
#include <gtest/gtest.h>

#include "core/objective/objective.h"
#include "tests/claims_util.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

TEST(RobustnessClaims, C28HippoRecoversFromARandomStateWithManyInvertedTets) {
  const Scene scene = loadScene(catalogScenePath("hippo_recovery"));
  ASSERT_EQ(scene.settings.gravity, Vec3::Zero());
  ASSERT_TRUE(scene.colliders.empty() && scene.bodies[0].handles.empty());
  Simulation sim(scene);
  const Model& model = sim.model();
  const FrameRecord start = sim.lastFrame();
  Objective elastic_only(model);
  elastic_only.setInertia(sim.positions(), 0.0);
  EnergyParts parts;
  elastic_only.evaluate(sim.positions(), nullptr, &parts);
  const double initial_energy = parts.elastic;
  ASSERT_GE(start.inverted, 0.3 * model.tets.size()) << "not an extreme enough start";
  int last_inverted_frame = 0;
  for (int f = 1; f <= scene.frames; ++f) {
    ASSERT_NO_THROW(sim.step()) << "frame " << f;
    if (sim.lastFrame().inverted > 0) last_inverted_frame = f;
  }
  ASSERT_TRUE(sim.positions().allFinite());
  const auto rest = asRows(model.rest);
  const double diagonal = (rest.colwise().maxCoeff() - rest.colwise().minCoeff()).norm();
  const double distance = massWeightedRms(model, nonRigidPart(model, sim.positions()));
  const double energy_ratio = sim.lastFrame().elastic_energy / initial_energy;
  std::printf("C28: %d of %d tets inverted at the start (%.0f %%), none from frame %d on; after %d frames RMS distance to the rest "
              "shape %.3g mm (%.2g %% of the diagonal), elastic energy %.3g of the initial\n",
              start.inverted, model.tets.size(), 100.0 * start.inverted / model.tets.size(), last_inverted_frame + 1, scene.frames,
              1e3 * distance, 100 * distance / diagonal, energy_ratio);
  EXPECT_EQ(sim.lastFrame().inverted, 0);
  EXPECT_LE(distance, 0.01 * diagonal);
  EXPECT_LE(energy_ratio, 1e-4);
}

}  // namespace
}  // namespace qnsim
