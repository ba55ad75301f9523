#pragma once
// Initial states other than the rest shape (e.g. the randomised hippo of Fig. 18), drawn from a seeded
// generator whose numbers are the same on every platform and standard library.
#include <cstdint>

#include "core/common/types.h"

namespace qnsim {

struct PerturbDesc {
  enum class Kind { None, Random, UniformBox };
  Kind kind = Kind::None;
  std::uint64_t seed = 0;
  double amplitude = 0;  // random: each coordinate moves by a uniform amount in [-amplitude, amplitude] (m)
  double scale = 1;      // uniform_box: positions uniform in the rest bounding box scaled by this about its centre
};

// The body's initial positions: `rest` perturbed as described (`rest` itself for Kind::None).
MatX3 perturbedPositions(const PerturbDesc& perturb, const MatX3& rest);

}  // namespace qnsim
