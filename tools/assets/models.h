#pragma once
// The project's own characters as smooth implicit shapes, in metres, +y up, facing +z (the squirrel)
// or +x (the hippo). Lowest points are near y = 0 (the builder snaps them exactly).
#include "tools/assets/sdf.h"

namespace qnsim::assets {

// A cartoon squirrel head about 0.2 m tall: round skull, big cheeks, muzzle, nose, eyes, two tall
// ears with pointed tips, and two front teeth.
Sdf squirrelHead();
// Just the two front teeth (used to tag the stiffer region).
Sdf squirrelTeeth();

// A hippo about 1 m long: barrel body, big head with a wide snout, four stubby legs, small ears.
Sdf hippo();

}  // namespace qnsim::assets
