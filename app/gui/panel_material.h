#pragma once
// The Materials tab: each region's model and constants edited live, its stress curve and fitted stiffness.
#include <imgui.h>

#include "app/gui/ui_state.h"

namespace qnsim::gui {

void drawMaterialTab(UiState& ui);

}  // namespace qnsim::gui
