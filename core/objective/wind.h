#pragma once
// Wind (thesis Sec. 8.4): each surface triangle feels the air drag f = -c A (n . (v - w)) n, with c the
// drag (wind.drag), A its area, n its unit normal, v its velocity and w the air's velocity, shared
// equally by its three vertices. Taken implicitly over the step with v = (x - x_start)/h and n, A
// frozen at the frame's start, it is the gradient of a convex quadratic per vertex,
//   E_a = 1/2 (x_a - x_a,start - h w)^T K_a (x_a - x_a,start - h w),  K_a = sum_t c A_t / (3 h) n_t n_t^T,
// which enters g and grad g as WindTerms (never A, like contacts).
#include <vector>

#include "core/model/model.h"
#include "core/objective/objective.h"
#include "qnsim/settings.h"

namespace qnsim {

// The air's velocity at time t: wind.velocity scaled by 1 + gust noise(t), noise a smooth seeded value
// noise in [-1, 1] with a new value every gust_period.
Vec3 windVelocity(const WindSettings& wind, double t);

// The wind terms of every body's surface for the step from x_start to time t (none when drag is 0).
void makeWindTerms(const Model& model, const VecX& x_start, const WindSettings& wind, double h, double t,
                   std::vector<WindTerm>& terms);

}  // namespace qnsim
