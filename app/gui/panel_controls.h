#pragma once
// The left column: scene, simulation, view, solver and recording controls, and the messages.
#include <imgui.h>

#include "app/gui/ui_state.h"

namespace qnsim::gui {

void drawControlPanel(UiState& ui, const ImVec2& position, const ImVec2& size);

}  // namespace qnsim::gui
