#include "core/scene/perturb.h"

#include <random>

namespace qnsim {
namespace {

// Uniform in [0, 1): the top 53 bits of mt19937_64, whose output the C++ standard fixes (unlike
// std::uniform_real_distribution's, which differs between standard libraries).
double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

}  // namespace

MatX3 perturbedPositions(const PerturbDesc& perturb, const MatX3& rest) {
  MatX3 V = rest;
  std::mt19937_64 rng(perturb.seed);
  if (perturb.kind == PerturbDesc::Kind::Random) {
    for (Eigen::Index i = 0; i < V.rows(); ++i)
      for (int c = 0; c < 3; ++c) V(i, c) += perturb.amplitude * (2.0 * unit(rng) - 1.0);
  } else if (perturb.kind == PerturbDesc::Kind::UniformBox && V.rows() > 0) {
    const Vec3 lo = rest.colwise().minCoeff(), hi = rest.colwise().maxCoeff();
    const Vec3 center = 0.5 * (lo + hi), half = 0.5 * perturb.scale * (hi - lo);
    for (Eigen::Index i = 0; i < V.rows(); ++i)
      for (int c = 0; c < 3; ++c) V(i, c) = center[c] + half[c] * (2.0 * unit(rng) - 1.0);
  }
  return V;
}

}  // namespace qnsim
