#pragma once
// How far a deformed model is from its rest shape once rigid motion is taken out: the measure of the
// hippo's recovery (Fig. 18) and the squirrel's jiggle, shared by the experiments and the claim tests.
#include "core/model/model.h"

namespace qnsim {

// x minus its best rigid fit R X + t to the rest positions X (mass-weighted Procrustes), per vertex.
VecX nonRigidPart(const Model& model, const VecX& x);

// Mass-weighted RMS of a per-vertex field u (3n stacked).
double massWeightedRms(const Model& model, const VecX& u);

}  // namespace qnsim
