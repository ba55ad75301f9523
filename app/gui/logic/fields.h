#pragma once
// Per-vertex scalar fields for colouring the model: stress, strain and inversion of the tets (and the
// strain of springs), averaged over the elements around each vertex.
#include <array>
#include <string>
#include <vector>

#include "core/model/model.h"

namespace qnsim::gui {

enum class ColorMode { Region, Stress, Strain, Inversion };

// Each mode's name on the command line (--color), its label in the View panel and its legend title.
struct ColorModeNames {
  ColorMode mode;
  const char* key;
  const char* label;
  const char* legend;
};
const std::array<ColorModeNames, 4>& colorModes();
std::vector<std::string> colorModeKeys();

// stress: |P|_F, the Frobenius norm of the first Piola-Kirchhoff stress (Pa);
// strain: the largest |s_i - 1| over the principal stretches (springs: |l / l0 - 1|);
// inversion: the fraction of the incident tets with det F <= 0.
// Region mode gives an empty field.
void vertexField(const Model& model, const VecX& x, ColorMode mode, std::vector<float>& field);

// A display range for a field: the 98th percentile of its values, so that one spike does not wash
// the colours out (at least `floor`).
float robustMax(const std::vector<float>& field, float floor);

}  // namespace qnsim::gui
