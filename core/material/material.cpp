#include "qnsim/material.h"

#include <algorithm>
#include <cmath>

#include "qnsim/error.h"

namespace qnsim {

const MaterialParameter& Material::parameter(std::string_view name) const {
  std::string known;
  for (const MaterialParameter& p : parameters()) {
    if (p.key == name) return p;
    known += (known.empty() ? "" : ", ") + p.key;
  }
  throw error("material '", model(), "' has no parameter '", name, "' (it has: ", known, ")");
}

void Material::set(std::string_view name, double value) {
  const MaterialParameter& p = parameter(name);
  try {
    checkParameterValue(p, value);
  } catch (const Error& e) {
    throw error("material '", model(), "' parameter ", e.what());
  }
  this->*p.member = value;
}

Effect Material::editEffect(const Material& before) const {
  if (model() != before.model() || !sameUndeclared(before)) return Effect::NewSystemMatrix;
  Effect effect = Effect::Live;
  for (const MaterialParameter& p : parameters())
    if (this->*p.member != before.*p.member) effect = std::max(effect, p.effect);
  return effect;
}

std::vector<MaterialParameter> Material::withTearing(std::vector<MaterialParameter> constants) {
  const auto live = [](std::string key, double max, std::string description) {
    return Parameter{std::move(key), "Material", std::move(description), Parameter::Type::Real, 0.0, 0.0, max, {}, Effect::Live};
  };
  constants.push_back({live("tear_strain", 1e3,
                            "Tearing: an element is removed after a frame in which its largest principal stretch (tets: the "
                            "largest singular value of F; springs: length / rest length) exceeds 1 + tear_strain; 0 = never tears."),
                       &Material::tear_strain_});
  constants.push_back({live("tear_scatter", 1.0,
                            "Spread of tear_strain over the elements, as flaws in a fabric: element i tears beyond "
                            "1 + tear_strain (1 + tear_scatter r_i), r_i in [-1, 1] hashed from its index; 0 = all alike."),
                       &Material::tear_scatter_});
  return constants;
}

void Material::resetToDefaults() {
  for (const MaterialParameter& p : parameters()) this->*p.member = std::get<double>(p.default_value);
}

LameParameters lameFromYoung(double young, double poisson) {
  if (!(young > 0) || !std::isfinite(young)) throw error("Young's modulus must be positive and finite (got ", young, " Pa)");
  if (!(poisson > -1.0 && poisson < 0.5)) throw error("Poisson's ratio must lie in (-1, 0.5) (got ", poisson, ")");
  return {young / (2.0 * (1.0 + poisson)), young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson))};
}

}  // namespace qnsim
