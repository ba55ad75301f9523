#pragma once
// Colours for the model: a perceptual sequential map for scalar fields and a categorical palette for
// material regions. Linear RGB in [0, 1] (the shader converts to sRGB).
#include "view/camera.h"

namespace qnsim::view {

// Sequential map for t in [0, 1] (clamped): deep blue through teal and yellow to red, in the spirit
// of "turbo" but darker at the low end so that the surface shading stays readable.
Vec3f sequentialColor(float t);

// A distinct, soft colour per region index (cycles after 8).
Vec3f regionColor(int region);

// sRGB (0..255) to linear.
Vec3f fromSrgb(int r, int g, int b);

}  // namespace qnsim::view
