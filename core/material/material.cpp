#include "core/material/material.h"

#include <cmath>

#include "core/common/error.h"

namespace qnsim {
namespace {
int indexOf(const Material& m, std::string_view name) {
  const auto& params = m.parameters();
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name) return static_cast<int>(i);
  std::string known;
  for (const auto& p : params) known += (known.empty() ? "" : ", ") + p.name;
  throw error("material '", m.model(), "' has no parameter '", name, "' (it has: ", known, ")");
}
}  // namespace

double Material::get(std::string_view name) const { return values_[indexOf(*this, name)]; }

void Material::set(std::string_view name, double value) {
  const int i = indexOf(*this, name);
  const auto& p = parameters()[i];
  if (!std::isfinite(value)) throw error("material '", model(), "' parameter '", name, "': value is not a finite number");
  if (value < p.min || value > p.max)
    throw error("material '", model(), "' parameter '", name, "': ", value, " is outside [", p.min, ", ", p.max, "]");
  values_[i] = value;
}

void Material::resetToDefaults() {
  values_.clear();
  for (const auto& p : parameters()) values_.push_back(p.default_value);
}

}  // namespace qnsim
