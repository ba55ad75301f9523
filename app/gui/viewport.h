#pragma once
// The 3D view between the panels: camera controls, hover and drag of surface vertices, box selection,
// the cut tool, and the colours and highlights handed to the renderer.
#include "app/gui/ui_state.h"

namespace qnsim::gui {

struct ViewRect {
  float x = 0, y = 0, width = 1, height = 1;  // window pixels (ImGui / GLFW coordinates, origin top left)
};

// Mouse and keyboard for the view (when ImGui does not want them).
void handleViewInput(UiState& ui, const ViewRect& rect);

// Pushes the snapshot's surface, colours and highlighted points to the renderer.
void updateRenderer(UiState& ui, render::Renderer& renderer);

// Overlays drawn with ImGui on top of the 3D view: drag spring, selection box, colour legend, status.
void drawViewOverlay(UiState& ui, const ViewRect& rect);

// Starts, moves and ends a drag of a vertex (the scripted screenshot run uses these too).
bool beginDrag(UiState& ui, const view::Vec2f& pixel);
void moveDrag(UiState& ui, const view::Vec2f& pixel);
void endDrag(UiState& ui);

// The cut tool's cut along the line between two pixels of the view: the elements crossed by the wedge
// from the eye through the line are removed (Simulation::cut). The scripted screenshot run uses it too.
void cutAlong(UiState& ui, const view::Vec2f& from, const view::Vec2f& to);

}  // namespace qnsim::gui
