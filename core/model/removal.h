#pragma once
// Removing elements at run time (thesis Sec. 8.4): tearing, when an element is stretched past its
// material's tear_strain, and cutting, when it is crossed by a cut surface. A removed element stays in
// the model's arrays, flagged, so that indices stay stable; it leaves g, grad g, Newton's Hessian and
// every L assembled afterwards at once, and the drawn surfaces follow.
//
// Lumped masses stay as they are: a vertex left without elements keeps its mass rather than leaving a
// zero row in A, so A = M/h^2 + L stays positive definite whatever is removed, and when A is kept
// (tearing.matrix=keep) it still holds the M it was factored with. Such a vertex is no longer part of
// any body (Simulation holds it still; it is not drawn).
#include <vector>

#include "core/model/model.h"
#include "qnsim/state.h"

namespace qnsim {

// The elements still present whose largest principal stretch exceeds 1 + their material's tear_strain
// (tets: the largest singular value of F; springs: length / rest length).
ElementSet overstretchedElements(const Model& model, const VecX& x);

// A cut surface: the wedge {apex + s u + t v : s, t >= 0}. The sandbox's cut is the wedge from the eye
// through the rays of the dragged line's two ends.
struct CutWedge {
  Vec3 apex, u, v;
};
// The elements still present with an edge that crosses the wedge at positions x (a spring is its own edge).
ElementSet elementsCrossedBy(const Model& model, const VecX& x, const CutWedge& cut);

// Removes the elements and the cloth springs they leave without purpose: edge springs of no remaining
// triangle, and bending springs whose hinge lost a spring. Rebuilds the surfaces. Returns how many
// elements were removed (those already removed are not counted again).
int removeElements(Model& model, const ElementSet& elements);
// Removes exactly `elements` and brings back every other (a reset, a loaded state); false when that
// changes nothing.
bool setRemovedElements(Model& model, const ElementSet& elements);
ElementSet removedElements(const Model& model);
int removedCount(const Model& model);
// The vertices no present tet or spring uses any more, increasing.
std::vector<int> verticesWithoutElements(const Model& model);

// Every body's surface from its present elements: the boundary faces of its tets, or the cloth triangles
// whose three edge springs are present.
void updateSurfaces(Model& model);

}  // namespace qnsim
