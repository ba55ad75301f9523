#pragma once
// The active contact set of paper Sec. 4.3: a penetrating vertex gets the energy k_c/2 ((x - t) . n)^2
// (t its projection on the surface, n the normal there) in g and grad g but not in A, so A is never
// refactored. The set is refreshed before every gradient evaluation; a vertex touching the surface
// whose velocity relative to the collider separates it from the surface is released. The term is
// one-sided (objective.h), so it never acts as glue. A moving collider's surface velocity enters the
// release test and the optional friction.
#include <vector>

#include "core/collision/collider.h"
#include "core/objective/objective.h"
#include "qnsim/settings.h"

namespace qnsim {

// The contact settings (their defaults and ranges are the registry's: contact_* in parameters.cpp).
struct ContactParams {
  double time_step;
  double stiffness;   // k_c (N/m)
  double margin;      // vertices within this distance above the surface are contact candidates (m)
  double friction;    // Coulomb coefficient; 0 = frictionless
  double slip_speed;  // tangential speed below which friction acts as a stiff drag (m/s)
};
ContactParams contactParams(const Settings& settings, double margin);

// Rebuilds the objective's contact (and friction) terms for positions x. `previous` are the
// start-of-frame positions, for the vertex velocity (x - previous)/h. Friction anchors each contact at
// the vertex's start-of-frame position carried along by the collider, with the normal force
// k_c |depth| at x. Returns true when g(x) changed: when the set of vertices whose terms push at x
// (the penetrating ones) changed.
bool refreshContacts(const std::vector<Collider>& colliders, const VecX& x, const VecX& previous, const ContactParams& params,
                     Objective& objective);

}  // namespace qnsim
