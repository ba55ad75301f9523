#include "core/material/models.h"

namespace qnsim {

const std::vector<MaterialParameter>& Spring::parameters() const {
  static const std::vector<MaterialParameter> params =
      withTearing({declare(&Spring::k_, "k", 100.0, 0.0, 1e12, "Spring stiffness k (N/m): E = k/2 (|x1 - x2| - l0)^2.")});
  return params;
}

Spring::Spring() { resetToDefaults(); }

}  // namespace qnsim
