#pragma once
// The ImGui widget of a declared parameter (core/params/parameter.h), with its description as tooltip.
#include "qnsim/parameter.h"

namespace qnsim::gui {

// Edits `value` in place; true when the user changed it this frame. The caller applies it through the
// parameter's checked path (an Edit). `continuing`, when given: whether the change goes on a gesture that
// began in an earlier frame (a slider being dragged), so that the gesture is one step to undo.
bool editParameter(const Parameter& p, ParameterValue& value, bool* continuing = nullptr);
// Whether the last widget is being dragged since an earlier frame (call right after it).
bool gestureContinues();

}  // namespace qnsim::gui
