#pragma once
// The inversion guard (solver.inversion_guard): how far a step may go before some tet turns flat.
// det F of tet e along x + t d is a cubic in t, det(Ds(x) + t Ds(d)) det(Dm^-1); its first root in
// (0, max_alpha] is found by splitting the interval at the cubic's turning points and bisecting the
// first piece whose end is not positive. Tets already flat or inverted at x are left out (a guard can
// keep a tet from inverting, not turn it back).
#include <vector>

#include "qnsim/model.h"

namespace qnsim {

// The first t in (0, max_alpha] at which the cubic c0 + c1 t + c2 t^2 + c3 t^3 (c0 > 0) reaches 0, or
// max_alpha when it stays positive. The result never lies past the root.
double firstCubicRoot(double c0, double c1, double c2, double c3, double max_alpha);

// The largest alpha in [0, max_alpha] along d from x at which every tet with det F > 0 at x keeps
// det F > 0 on the whole segment, shortened to `keep` (0.9) of the first root so that a step never
// ends on a flat tet. With floor > 0, the bound is where some tet's det F reaches the smaller of `floor`
// and half its det F at x instead. A tet flatter than det F = 10^-9 takes no step that flattens it
// further (the bound is then 0): each step may go `keep` of the way to flat, and step after step a tet
// would come close enough for the rounding of x + alpha d to turn it over. Deterministic for any thread
// count.
double inversionStepBound(const TetElements& tets, const VecX& x, const VecX& d, double max_alpha, double keep = 0.9,
                          double floor = 0.0);

// The tets that stop a step along d from x short of `reach` under inversionStepBound (no floor): the
// flat ones that d flattens further, and those whose det F reaches 0 before reach. The tightest first
// (the earliest root; ties by number); serial, for the guard's rescue of a stopped step, not every step.
std::vector<int> stoppingTets(const TetElements& tets, const VecX& x, const VecX& d, double reach);

// Whether some tet with det F > 0 at `from` has det F <= 0 at `to` (a move made without the bound, such
// as a vertex taken out of a collider along its normal, checked after the fact). Deterministic for any
// thread count.
bool turnsTetOver(const TetElements& tets, const VecX& from, const VecX& to);

// The gradient of tet e's det Ds with respect to its four vertices' positions (12 values, vertex by
// vertex in the tet's order): the cofactors of Ds, and minus their sum for the first vertex.
Eigen::Matrix<double, 12, 1> detGradient(const TetElements& tets, const VecX& x, int e);

}  // namespace qnsim
