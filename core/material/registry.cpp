#include "core/material/models.h"
#include "core/material/spline.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {
template <class M>
MaterialModel model() {
  return {std::string(M().model()), std::is_base_of_v<SolidMaterial, M>, [] { return std::unique_ptr<Material>(std::make_unique<M>()); }};
}
}  // namespace

const std::vector<MaterialModel>& materialModels() {
  static const std::vector<MaterialModel> models = {
      model<Corotated>(), model<FixedCorotated>(), model<NeoHookean>(), model<StVenantKirchhoff>(), model<MooneyRivlin>(),
      model<Polynomial>(),  model<SplineMaterial>(), model<Arap>(),    model<PdStrainLimit>(), model<Spring>()};
  return models;
}

std::unique_ptr<Material> makeMaterial(std::string_view name) {
  std::string known;
  for (const MaterialModel& m : materialModels()) {
    if (m.name == name) return m.make();
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw error("unknown material model '", name, "' (known: ", known, ")");
}

}  // namespace qnsim
