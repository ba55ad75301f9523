#pragma once
// Exact orientation predicates on double coordinates: the sign of a determinant, right whatever the
// round-off. A floating-point evaluation decides when its value exceeds a bound on its error; otherwise
// the determinant is summed exactly as a floating-point expansion (error-free sums and products,
// Dekker 1971, Shewchuk 1997). Exact while no product underflows (coordinates above about 1e-100 m or
// zero), which any scene satisfies. Used by the intersection check (core/collision/intersection_check.h).
#include "qnsim/types.h"

namespace qnsim {

// The sign (+1, 0, -1) of det[b - a, c - a, d - a]: positive when d lies on the side of the plane
// through a, b, c that (b - a) x (c - a) points to, zero when the four points are coplanar.
int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

// The sign of (b - a) x (c - a) in 2D: positive when a, b, c turn counter-clockwise.
int orient2d(const Vec2& a, const Vec2& b, const Vec2& c);

// Whether the closed segment p q and the closed triangle (a, b, c) share a point, exactly; coplanar
// ones included. A triangle without area (collinear corners) meets nothing here.
bool segmentMeetsTriangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace qnsim
