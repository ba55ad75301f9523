#pragma once
// Materials with non-default parameters and random deformation gradients, shared by the tests.
#include <Eigen/Geometry>
#include <memory>
#include <random>
#include <vector>

#include "core/material/spline.h"
#include "qnsim/material.h"

namespace qnsim::test {

struct NamedMaterial {
  std::string label;
  std::unique_ptr<SolidMaterial> material;
};

inline std::unique_ptr<SolidMaterial> solid(const std::string& model, std::vector<std::pair<std::string, double>> params) {
  auto m = makeMaterial(model);
  for (const auto& [name, value] : params) m->set(name, value);
  return std::unique_ptr<SolidMaterial>(static_cast<SolidMaterial*>(m.release()));
}

inline std::vector<NamedMaterial> allSolidMaterials() {
  std::vector<NamedMaterial> out;
  out.push_back({"corotated", solid("corotated", {{"mu", 3}, {"lambda", 7}})});
  out.push_back({"fixed_corotated", solid("fixed_corotated", {{"mu", 3}, {"lambda", 7}})});
  out.push_back({"neo_hookean", solid("neo_hookean", {{"mu", 2}, {"lambda", 9}})});
  out.push_back({"stvk", solid("stvk", {{"mu", 2}, {"lambda", 3}})});
  out.push_back({"mooney_rivlin", solid("mooney_rivlin", {{"mu10", 1}, {"mu01", 0.5}, {"lambda", 4}})});
  out.push_back({"polynomial", solid("polynomial", {{"mu2", 0.5}, {"mu3", 0.2}, {"mu4", 3}, {"mu5", 0.1}, {"mu6", 0.3}})});
  out.push_back({"polynomial_paper", solid("polynomial", {{"mu4", 5}})});
  out.push_back({"arap", solid("arap", {{"mu", 3}})});
  // Random stretches in [0.5, 1.6] fall below, inside and above the limits.
  out.push_back({"pd_strain_limit", solid("pd_strain_limit", {{"arap_weight", 2}, {"limit_weight", 7}, {"sigma_min", 0.8}, {"sigma_max", 1.3}})});
  for (const char* preset : {"A", "B"}) {
    auto spline = solid("spline", {{"mu", 2}, {"lambda", 5}});
    static_cast<SplineMaterial&>(*spline).setPreset(preset);
    out.push_back({std::string("spline_") + preset, std::move(spline)});
  }
  return out;
}

inline Mat3 randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Eigen::Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
}

// F = R1 diag(s) R2 with stretches in [0.5, 1.6]; when inverted, the smallest is in [-0.45, -0.2]
// (kept away from s_i + s_j = 0, where the corotated twist stiffness is singular).
inline Mat3 randomDeformation(std::mt19937& rng, bool inverted) {
  std::uniform_real_distribution<double> stretch(0.5, 1.6), flipped(-0.45, -0.2);
  const Vec3 s(stretch(rng), stretch(rng), inverted ? flipped(rng) : stretch(rng));
  return randomRotation(rng) * s.asDiagonal() * randomRotation(rng).transpose();
}

}  // namespace qnsim::test
