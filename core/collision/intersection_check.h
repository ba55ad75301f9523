#pragma once
// The exact intersection check: do the simulated surfaces cross themselves, each other or a collider?
// It shares nothing with the contact code (contacts.h, self_contacts.h) that it judges: its own
// primitives from the model's bodies, its own broad phase (a grid of boxes, box_grid.h) and exact
// predicates (core/math/exact_predicates.h), so a count of zero is a proof, up to the cases below.
//
// Triangles are the bodies' surfaces (cloth triangles, tet boundary faces) as they are now (torn or cut
// elements out); segments are their edges and the strands' segments. Two triangles with no shared
// corner intersect when an edge of one meets the other (closed sets: touching counts); two sharing one
// corner, when the edge of one opposite it meets the other (a fold at the shared corner that stays in
// one plane is missed); two sharing an edge are never counted. A triangle without area meets nothing.
// Colliders: a surface or strand vertex strictly inside (closestSurfacePoint, in floating point).
#include <vector>

#include "core/collision/collider.h"
#include "qnsim/model.h"

namespace qnsim {

struct IntersectionCount {
  int triangle_pairs = 0;    // pairs of triangles that intersect
  int edge_crossings = 0;    // (edge or strand segment, triangle) pairs that meet, the edge not a side of the triangle
  int inside_colliders = 0;  // surface and strand vertices inside some collider
  int total() const { return triangle_pairs + edge_crossings + inside_colliders; }
};

// Counts at positions x; deterministic for any thread count.
IntersectionCount countIntersections(const Model& model, const VecX& x, const std::vector<Collider>& colliders = {});

}  // namespace qnsim
