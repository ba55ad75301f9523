#pragma once
// Time integrators written as one minimisation per step (thesis Ch. 3; Liu's reference code):
//   g(x) = 1/(2h^2) (x - y)^T M (x - y) + c E(s x + o),   A = M/h^2 + c s^2 L,
// backward Euler:   c = 1,   s = 1,   y = x_n + h v_n + h^2 g,          v+ = (x+ - x_n)/h;
// implicit midpoint: c = 1,  s = 1/2, o = x_n/2 (E at the midpoint), y = x_n + h v_n + h^2/2 g,
//                    v+ = 2 (x+ - x_n)/h - v_n;
// BDF2:              c = 4/9, s = 1,  y = (4 x_n - x_n-1)/3 + 2h/9 (4 v_n - v_n-1) + 4h^2/9 g,
//                    v+ = 3/(2h) (x+ - (4 x_n - x_n-1)/3); the first step takes x_n-1 = x_n, v_n-1 = v_n.
// The forces of E act at the velocity a/h (x - x^) with a = 1, x^ = x_n (backward Euler: v+; implicit
// midpoint: the midpoint's velocity) or a = 3/2, x^ = (4 x_n - x_n-1)/3 (BDF2: v+); stiffness-proportional
// damping acts on it (damping.h). The velocities entering y are the dragged ones (damping.h).
#include "qnsim/settings.h"

namespace qnsim {

struct StepForm {
  double energy_scale = 1.0;    // c
  double argument_scale = 1.0;  // s
  double velocity_scale = 1.0;  // a
};
StepForm stepForm(IntegratorKind kind);

// The state the integrators read: this step's start (x_n, v_n) and, for BDF2, the step before.
struct StepHistory {
  const VecX &x, &v, &x_previous, &v_previous;
};

// What a step starts from: y, the energy argument's offset o and the velocity's anchor x^; and the
// adaptive initial guess of Vertex Block Descent (Chen et al. 2024; solver.initial_guess=adaptive): y
// with its gravity term q g (q = h^2, h^2/2, 4h^2/9) replaced by q g^ clamp(a . g^, 0, |g|) per vertex,
// a = (v_n - v_n-1)/h the last step's acceleration, so that a resting body starts where it rests.
struct Prediction {
  VecX y, offset, anchor, adaptive_guess;
};
void predict(IntegratorKind kind, const StepHistory& history, const Settings& settings, Prediction& out);

// The velocity at the end of the step, x_new being its solution.
void updateVelocity(IntegratorKind kind, const StepHistory& history, const Settings& settings, const VecX& x_new, VecX& v_new);

}  // namespace qnsim
