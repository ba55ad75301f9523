#include "core/sim/integrator.h"

#include <algorithm>

namespace qnsim {
namespace {
void addGravity(VecX& y, const Vec3& acceleration) {
  for (Eigen::Index v = 0; v < y.size() / 3; ++v) vertex(y, v) += acceleration;
}

// Prediction::adaptive_guess from y, q being the factor of h^2 g in y.
void addAdaptiveGuess(const StepHistory& s, const Settings& settings, double q, Prediction& out) {
  const Vec3 g = settings.gravity;
  const double magnitude = g.norm(), h = settings.time_step;
  out.adaptive_guess = out.y;
  if (!(magnitude > 0)) return;
  const Vec3 direction = g / magnitude;
  for (Eigen::Index v = 0; v < out.y.size() / 3; ++v) {
    const double along = (vertex(s.v, v) - vertex(s.v_previous, v)).dot(direction) / h;
    vertex(out.adaptive_guess, v) -= q * (magnitude - std::clamp(along, 0.0, magnitude)) * direction;
  }
}
}  // namespace

StepForm stepForm(IntegratorKind kind) {
  switch (kind) {
    case IntegratorKind::BackwardEuler: return {1.0, 1.0, 1.0};
    case IntegratorKind::ImplicitMidpoint: return {1.0, 0.5, 1.0};
    case IntegratorKind::Bdf2: return {4.0 / 9.0, 1.0, 1.5};
  }
  return {};
}

void predict(IntegratorKind kind, const StepHistory& s, const Settings& settings, Prediction& out) {
  const double h = settings.time_step;
  switch (kind) {
    case IntegratorKind::BackwardEuler:
      out.y = s.x + h * s.v;
      addGravity(out.y, h * h * settings.gravity);
      out.anchor = s.x;
      break;
    case IntegratorKind::ImplicitMidpoint:
      out.y = s.x + h * s.v;
      addGravity(out.y, 0.5 * h * h * settings.gravity);
      out.offset = 0.5 * s.x;
      out.anchor = s.x;
      break;
    case IntegratorKind::Bdf2:
      out.anchor = (4.0 * s.x - s.x_previous) / 3.0;
      out.y = out.anchor + (2.0 * h / 9.0) * (4.0 * s.v - s.v_previous);
      addGravity(out.y, 4.0 * h * h / 9.0 * settings.gravity);
      break;
  }
  const double q = kind == IntegratorKind::BackwardEuler ? 1.0 : kind == IntegratorKind::ImplicitMidpoint ? 0.5 : 4.0 / 9.0;
  addAdaptiveGuess(s, settings, q * h * h, out);
}

void updateVelocity(IntegratorKind kind, const StepHistory& s, const Settings& settings, const VecX& x_new, VecX& v_new) {
  const double h = settings.time_step;
  switch (kind) {
    case IntegratorKind::BackwardEuler: v_new = (x_new - s.x) / h; break;
    case IntegratorKind::ImplicitMidpoint: v_new = 2.0 * (x_new - s.x) / h - s.v; break;
    case IntegratorKind::Bdf2: v_new = 1.5 / h * (x_new - (4.0 * s.x - s.x_previous) / 3.0); break;
  }
}

}  // namespace qnsim
