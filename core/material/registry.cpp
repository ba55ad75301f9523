#include "core/common/error.h"
#include "core/material/models.h"
#include "core/material/spline.h"

namespace qnsim {

const std::vector<std::string>& materialModels() {
  static const std::vector<std::string> names = {"corotated", "neo_hookean", "stvk", "mooney_rivlin", "polynomial",
                                                 "spline",    "arap",        "spring"};
  return names;
}

std::unique_ptr<Material> makeMaterial(std::string_view model) {
  if (model == "corotated") return std::make_unique<Corotated>();
  if (model == "neo_hookean") return std::make_unique<NeoHookean>();
  if (model == "stvk") return std::make_unique<StVenantKirchhoff>();
  if (model == "mooney_rivlin") return std::make_unique<MooneyRivlin>();
  if (model == "polynomial") return std::make_unique<Polynomial>();
  if (model == "spline") return std::make_unique<SplineMaterial>();
  if (model == "arap") return std::make_unique<Arap>();
  if (model == "spring") return std::make_unique<Spring>();
  std::string known;
  for (const auto& name : materialModels()) known += (known.empty() ? "" : ", ") + name;
  throw error("unknown material model '", model, "' (known: ", known, ")");
}

}  // namespace qnsim
