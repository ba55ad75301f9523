// Fig. 18: the hippo returns to its rest shape from a random state with many inverted tets (claim C28).
#include <cstdio>

#include "core/model/rigid_fit.h"
#include "core/objective/objective.h"
#include "core/scene/catalog.h"
#include "experiments/figures.h"
#include "experiments/trajectory.h"

namespace qnsim {
namespace {

double diagonal(const Model& model) {
  const auto rest = asRows(model.rest);
  return (rest.colwise().maxCoeff() - rest.colwise().minCoeff()).norm();
}

// E(x) of the current positions (the record of the initial state has no solve to read it from).
double currentElasticEnergy(const Simulation& sim) {
  Objective elastic_only(sim.model());
  elastic_only.setInertia(sim.positions(), 0.0);
  EnergyParts parts;
  elastic_only.evaluate(sim.positions(), nullptr, &parts);
  return parts.elastic;
}

// The pass rules of claim C28 (tests/test_claims_robustness.cpp) read off one run.
std::string summarize(const TrajectoryResult& r) {
  const int tets = r.frames.front().inverted, last = static_cast<int>(r.frames.size()) - 1;
  int clear_from = 0;
  for (int k = 0; k <= last; ++k)
    if (r.frames[k].inverted > 0) clear_from = k + 1;
  const double distance = r.values[1][last], energy_ratio = r.values[2][last] / r.values[2][0];
  char text[400];
  std::snprintf(text, sizeof text,
                "%s: %d tets inverted at the start, %d after frame %d (none from frame %d on); RMS distance to the rest shape "
                "after rigid alignment %.3g %% of the diagonal; elastic energy %.3g of the initial%s\n",
                r.method.label.c_str(), tets, r.frames[last].inverted, r.frames[last].frame,
                clear_from > last ? -1 : r.frames[clear_from].frame, distance, energy_ratio,
                r.stopped.empty() ? "" : (", stopped at " + r.stopped).c_str());
  return text + std::string("no inverted tet at the end, distance <= 1 % and energy <= 1e-4 of the initial (C28) ") +
         verdict(r.frames[last].inverted == 0 && distance <= 1.0 && energy_ratio <= 1e-4);
}

}  // namespace

ExperimentReport fig18(const ExperimentOptions& o) {
  TrajectorySetup s{"fig18", "Fig. 18: the hippo recovers from a random state",
                    "every vertex placed at random: the corotated hippo (mu = 20, lambda = 100, m = 5) returns to its rest shape "
                    "with no inversion handling beyond the corotated energy (C28)",
                    "hippo_recovery", 300, 60, {{"lbfgs_m5", {"solver.method=qn", "solver.lbfgs_window=5"}}}};
  s.include_start = true;
  s.quantities = {
      {"inverted_tets", "Inverted tets", false, [](const Simulation& sim) { return double(sim.lastFrame().inverted); }},
      {"rest_distance_percent", "Distance to rest (% of diagonal)", true,
       [](const Simulation& sim) { return 100 * massWeightedRms(sim.model(), nonRigidPart(sim.model(), sim.positions())) / diagonal(sim.model()); }},
      {"elastic_energy", "Elastic energy (J)", true, currentElasticEnergy}};
  s.snapshots = o.quick ? std::vector<int>{0, 5} : std::vector<int>{0, 5, 16, 300};
  const std::vector<TrajectoryResult> results = simulateTrajectories(s, o);
  ExperimentReport report = writeTrajectories(s, o, results, summarize(results.front()));
  writeSnapshotPicture(o.out / "fig18_picture.png", "Fig. 18: the hippo from a random state", results, s.snapshots,
                       loadScene(catalogScenePath(s.scene)).camera, report);
  return report;
}

}  // namespace qnsim
