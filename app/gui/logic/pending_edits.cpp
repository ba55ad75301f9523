#include "app/gui/logic/pending_edits.h"

#include <algorithm>

#include "qnsim/parameters.h"

namespace qnsim::gui {

void PendingEdits::sent(long number, std::string key, ParameterValue value) { values_.push_back({number, std::move(key), std::move(value)}); }

void PendingEdits::sent(long number, std::string region, std::shared_ptr<const Material> material) {
  materials_.push_back({number, std::move(region), std::move(material)});
}

void PendingEdits::applied(long edits_done) {
  std::erase_if(values_, [&](const Value& v) { return v.number <= edits_done; });
  std::erase_if(materials_, [&](const MaterialEdit& m) { return m.number <= edits_done; });
}

Settings PendingEdits::over(Settings settings) const {
  for (const Value& v : values_) findParameter(v.key).assign(settings, v.value);  // checked where they were sent
  return settings;
}

std::shared_ptr<const Material> PendingEdits::material(const std::string& region, std::shared_ptr<const Material> shown) const {
  for (const MaterialEdit& m : materials_)  // the newest wins
    if (m.region == region) shown = m.material;
  return shown;
}

}  // namespace qnsim::gui
