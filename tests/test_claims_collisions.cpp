// Paper claims on collisions (Sec. 4.3) with the catalog's Big Bunny (scenes/bunny_torus.json, full
// size: 6410 vertices): C26 the bunny is pushed all the way through a torus narrower than itself with
// the penetration at the end of every frame at most 1 % of its size, one factorisation for the whole
// run, and more line-search trials per iteration than without collisions, but not more than about 10;
// C8 collision-heavy scenes need more line-search trials than classical materials without collisions.
#include <gtest/gtest.h>

#include "tests/claims_util.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

TEST(CollisionClaims, C26BunnyPassesThroughTheTorusWithSmallPenetrationAndOneFactorization) {
  const Scene scene = loadScene(catalogScenePath("bunny_torus"));
  Simulation sim(scene);
  const double size = sim.lastFrame().bbox_diagonal;  // of the bunny at rest
  const Collider& ring = scene.colliders[0];
  ASSERT_EQ(ring.shape, Collider::Shape::Torus);
  const auto rest = asRows(sim.model().rest);
  const double narrowest = std::min(rest.col(0).maxCoeff() - rest.col(0).minCoeff(), rest.col(2).maxCoeff() - rest.col(2).minCoeff());
  ASSERT_LT(2 * (ring.major_radius - ring.minor_radius), narrowest) << "the hole must be narrower than the bunny";
  long trials = 0, iterations = 0;
  double worst_penetration = 0;
  int most_contacts = 0;
  const int frames = 100;
  for (int f = 1; f <= frames; ++f) {
    ASSERT_NO_THROW(sim.step()) << "frame " << f;
    const FrameRecord& r = sim.lastFrame();
    trials += r.ls_trials;
    iterations += r.iterations;
    worst_penetration = std::max(worst_penetration, r.max_penetration);
    most_contacts = std::max(most_contacts, r.active_contacts);
    EXPECT_LE(r.max_penetration, 0.01 * size) << "frame " << f;
  }
  ASSERT_TRUE(sim.positions().allFinite());
  // On the far side: every vertex below the bottom of the ring's tube.
  const double lowest_ring = ring.position.y() - ring.minor_radius, highest_bunny = asRows(sim.positions()).col(1).maxCoeff();
  const double per_iteration = double(trials) / iterations;
  std::printf("C26: %d frames, largest penetration %.3g mm (%.3f %% of the bunny's %.3f m), up to %d contacts, %.3f line-search "
              "trials per iteration (paper 4.92), %ld factorization(s), top of the bunny %.3f m below the ring\n",
              frames, 1e3 * worst_penetration, 100 * worst_penetration / size, size, most_contacts, per_iteration,
              sim.lastFrame().factorizations, lowest_ring - highest_bunny);
  EXPECT_LT(highest_bunny, lowest_ring) << "the bunny ends on the far side of the torus";
  EXPECT_GT(most_contacts, 100);
  EXPECT_EQ(sim.lastFrame().factorizations, 1);
  EXPECT_GT(per_iteration, 1.3) << "collisions cost line-search trials (classical materials need at most 1.3)";
  EXPECT_LE(per_iteration, 10.0);
}

}  // namespace
}  // namespace qnsim
