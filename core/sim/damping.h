#pragma once
// Damping besides the integrator's own (thesis Sec. 8.6), all optional:
// - drag on the velocities before they enter y (integrator.h), `damping` k of them removed per step:
//   ether drag (Su et al. 2013) takes k v; rigid_modes (Mueller et al. 2007, Sec. 3.5) takes only k times
//   each body's deviation from its rigid motion v_cm + omega x r, so linear and angular momentum stay;
// - stiffness-proportional material damping: a viscous stress beta k on each element's strain rate, k
//   the element's stiffness in L, the strain measured in the element's own frame turned on at the rate it
//   turned at the step's start, so that turning is no strain and is not damped: a potential in g
//   (objective.h, MaterialDamping) whose Hessian (beta/h) L_e bounds, L_e the elastic part of L; A holds
//   that bound (system_matrix.h). materialDampingWeight gives the potential's weight for the integrator.
#include "core/model/model.h"
#include "qnsim/settings.h"

namespace qnsim {

// The dragged velocities of the model's bodies at positions x.
void dragVelocities(const Model& model, const Settings& settings, const VecX& x, const VecX& v, VecX& dragged);

// The potential's weight in g, beta c s a / h (integrator.h: the forces' weight c s and the step's velocity
// a/h (x - x^)); 0 without damping.
double materialDampingWeight(const Settings& settings);

}  // namespace qnsim
