#pragma once
// The right column's tabs: convergence, compare, line search, timings and material curves.
#include <imgui.h>

#include "app/gui/ui_state.h"

namespace qnsim::gui {

void drawAnalysisPanel(UiState& ui, const ImVec2& position, const ImVec2& size);

}  // namespace qnsim::gui
