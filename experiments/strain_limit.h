#pragma once
// Fig. 11 (claim C35): the polynomial material a(x) = mu (x - 1)^4 (Sec. 4.1) against its Projective
// Dynamics strain-limit approximation (pd_strain_limit, fitted by fitStrainLimit), in a small free
// oscillation. The paper: PD with the two constraints damps the motion while the limit is inactive
// (its rows stay in M/h^2 + L) and stiffens abruptly once it activates.
#include <vector>

#include "experiments/trajectory.h"

namespace qnsim {

// The shaking bar's mesh held in its middle, without gravity or shaking, released at rest from a
// uniform stretch along its length that stays inside [sigma_min, sigma_max]. Methods: the polynomial
// solved by ours, the approximation solved by PD, and the approximation solved by ours (which
// separates the solver's damping from the material's and the integrator's).
TrajectorySetup strainLimitSetup();

// The exponential decay rate (1/s) of the total energy E = kinetic + elastic: minus the slope of the
// least-squares line through log E against time, over every frame.
double energyDecayRate(const std::vector<FrameRecord>& frames);

}  // namespace qnsim
