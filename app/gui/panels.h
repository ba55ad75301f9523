#pragma once
// The Dear ImGui panels. The left column holds the controls (scene, simulation, view, solver,
// recording); the right column the analysis tabs (convergence, compare, line search, timings,
// material curves).
#include <imgui.h>

#include "app/gui/ui_state.h"

namespace qnsim::gui {

void drawControlPanel(UiState& ui, const ImVec2& position, const ImVec2& size);
void drawAnalysisPanel(UiState& ui, const ImVec2& position, const ImVec2& size);

// Sections of the control panel (panel_*.cpp).
void drawScenePanel(UiState& ui);
void drawSimulationPanel(UiState& ui);
void drawViewPanel(UiState& ui);
void drawSolverPanel(UiState& ui);
void drawRecordingPanel(UiState& ui);

// Tabs of the analysis panel.
void drawConvergenceTab(UiState& ui);
void drawCompareTab(UiState& ui);
void drawLineSearchTab(UiState& ui);
void drawTimingsTab(UiState& ui);
void drawMaterialTab(UiState& ui);

// A "(?)" marker whose tooltip shows `text`.
void helpMarker(const char* text);

}  // namespace qnsim::gui
