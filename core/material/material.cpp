#include "core/material/material.h"

#include "core/common/error.h"

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

void Material::resetToDefaults() {
  for (const MaterialParameter& p : parameters()) this->*p.member = std::get<double>(p.default_value);
}

}  // namespace qnsim
