#pragma once
// The look of the panels: a dark theme with a readable font (DejaVu Sans when installed).
namespace qnsim::gui {
void applyStyle();
}
