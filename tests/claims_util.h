#pragma once
// Measurements shared by the claim tests (tests/test_claims_*.cpp): strains, rigid fits, inversions.
#include "core/math/svd3.h"
#include "core/model/rigid_fit.h"
#include "qnsim/simulation.h"

namespace qnsim::test {

// Largest |sigma - 1| over the principal stretches of every tet at positions x.
inline double maxStrain(const Model& model, const VecX& x) {
  double worst = 0;
  for (int e = 0; e < model.tets.size(); ++e) {
    worst = std::max(worst, (svd3(model.tets.deformationGradient(x, e)).sigma.array() - 1.0).abs().maxCoeff());
  }
  return worst;
}

// Largest | |F d| - 1 | over the tets: the stretch along the fibre direction d.
inline double maxFibreStrain(const Model& model, const VecX& x, const Vec3& d) {
  double worst = 0;
  for (int e = 0; e < model.tets.size(); ++e) {
    worst = std::max(worst, std::abs((model.tets.deformationGradient(x, e) * d).norm() - 1.0));
  }
  return worst;
}

}  // namespace qnsim::test
