#pragma once
// What the user made of the scene: Save scene (Ctrl+S), undo and redo (Ctrl+Z, Ctrl+Shift+Z) with the
// list of recent edits, the colliders' poses and sizes; and the question before unsaved edits are lost.
#include "app/gui/ui_state.h"

namespace qnsim::gui {

void drawEditsPanel(UiState& ui);
// The modal question of ui.unsaved_guard, while it asks.
void drawUnsavedQuestion(UiState& ui);

}  // namespace qnsim::gui
