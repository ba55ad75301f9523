#pragma once
// Initial states other than the rest shape (PerturbDesc of qnsim/scene.h).
#include "qnsim/scene.h"

namespace qnsim {

// The body's initial positions: `rest` perturbed as described (`rest` itself for Kind::None).
MatX3 perturbedPositions(const PerturbDesc& perturb, const MatX3& rest);

}  // namespace qnsim
