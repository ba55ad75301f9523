#pragma once
// Continuous collision detection for the barrier contact model (barrier.h): the earliest time t in
// [0, 1] at which primitives moving linearly from x to x + p may touch. Conservative: the time
// returned is never later than the true first contact, so a step scaled by it never passes through.
//
// Additive CCD (Li et al. 2021, "Codimensional Incremental Potential Contact"): after removing the
// pair's mean displacement, a point of one primitive moves relative to a point of the other by at most
// l = (the largest vertex displacement of one) + (that of the other) per unit of t, so their distance
// d(t) shrinks no faster than l. Advancing by 0.9 d(t) / l (0.8 d(0) / l first) never reaches contact;
// the march stops when d(t) falls below s d(0) (s = 1 - rescale) and returns the last time reached
// before that: a head-on approach at constant speed is held at 0.8 of its time of impact. Distances
// are measured less min_distance, so round-off in a distance near zero cannot let a pair through. Chosen over
// exact root finding (cubic polynomials in t, Tight-Inclusion) for its simplicity and because it needs
// no tolerance to be conservative: only the distance functions, evaluated at points it has reached.
// Its failure mode is slowness, never a missed contact: a pair sliding past at a small distance d
// with a large relative displacement l would take about l / d steps. So from each time it reaches the
// march may also jump ahead by a separating plane: the plane through the pair's closest points,
// normal to the line between them, has one primitive (a convex hull of its vertices) on each side;
// each vertex's height along the normal changes linearly in t, so the time at which the nearest two
// of opposite sides come within the gap is exact, and before it the plane still holds them apart. A
// pair sliding past, or moving apart, is cleared at once; a turning one advances by what its turn
// allows. Points against convex colliders use the plane tangent at the closest point (not the torus,
// nor moving colliders). The march is capped at max_steps (returning the time reached: conservative
// but a stalled line search), and a pair already touching (d(0) <= min_distance) returns 0.
// docs/contact.md has the details.
#include <vector>

#include "qnsim/collider.h"
#include "qnsim/types.h"

namespace qnsim {

struct CcdOptions {
  double rescale = 0.9;  // stop when the distance falls below (1 - rescale) of its start
  double max_time = 1.0;  // look no further than this t
  int max_steps = 10000;
  // Distances below this count as contact (m): far below any contact distance, far above the round-off
  // of distances between points a few metres from the origin, which could hide a pass-through.
  double min_distance = 1e-9;
};

// Point p against triangle (a, b, c), each moving by its displacement dp, da, db, dc over t in [0, 1].
// Returns the time of impact (conservative), or opts.max_time when there is none before it.
double pointTriangleCcd(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& dp, const Vec3& da, const Vec3& db,
                        const Vec3& dc, const CcdOptions& opts = {});

// Segment p0 p1 against segment q0 q1.
double edgeEdgeCcd(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, const Vec3& dp0, const Vec3& dp1, const Vec3& dq0,
                   const Vec3& dq1, const CcdOptions& opts = {});

// How far from a surface a point must be for the march to run to opts.max_time whatever it probes,
// when their distance changes by at most `motion` over [0, max_time]: the march stops early only where
// the distance falls below min_distance plus (1 - rescale) of its start above it. A cull that skips
// points farther than this leaves every time of impact as the march finds it.
double ccdCullDistance(double motion, const CcdOptions& opts);

// Point p moving by dp against a collider standing still (its surface's signed distance, 1-Lipschitz).
// A point starting inside returns 0.
double pointColliderCcd(const Vec3& p, const Vec3& dp, const Collider& collider, const CcdOptions& opts = {});

// Point p moving by dp against a collider that moves over the same t in [0, 1] from its pose a time
// step h before `end` to `end` (posedWithinFrame). The point's position in the collider's frame moves
// no faster than |dp| + h |v| + h |w| r, r bounding its distance from the collider's position.
double pointMovingColliderCcd(const Vec3& p, const Vec3& dp, const Collider& end, double h, const CcdOptions& opts = {});

}  // namespace qnsim
