#pragma once
// The ImGui widget of a declared parameter (core/params/parameter.h), with its description as tooltip.
#include "qnsim/parameter.h"

namespace qnsim::gui {

// Edits `value` in place; true when the user changed it this frame. The caller applies it through the
// parameter's checked path (setParameter or Material::set).
bool editParameter(const Parameter& p, ParameterValue& value);

}  // namespace qnsim::gui
