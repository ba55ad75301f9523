#include "core/collision/contacts.h"

#include <algorithm>

namespace qnsim {

ContactParams contactParams(const Settings& s, double margin) {
  return {s.time_step, s.contact_stiffness, margin, s.contact_friction, s.contact_slip_speed};
}

namespace {

// The vertices whose terms push at x (penetrating): g(x) depends on these alone, the one-sided terms
// of the other candidates are zero there.
std::vector<int> pushingAt(const std::vector<ContactTerm>& contacts, const VecX& x) {
  std::vector<int> out;
  for (const ContactTerm& c : contacts)
    if (c.gap(x) < 0) out.push_back(c.vertex);
  return out;
}

}  // namespace

bool refreshContacts(const std::vector<Collider>& colliders, const VecX& x, const VecX& previous, const ContactParams& params,
                     Objective& objective) {
  const std::vector<int> pushing_before = pushingAt(objective.contacts, x);
  objective.contacts.clear();
  objective.frictions.clear();
  const double h = params.time_step;
  for (const Collider& c : colliders)
    for (Eigen::Index v = 0; v < x.size() / 3; ++v) {
      const Vec3 p = vertex(x, v), start = vertex(previous, v);
      const SurfacePoint s = closestSurfacePoint(c, p);
      if (s.distance > params.margin) continue;
      // Above the surface and moving away from it fast enough to leave the margin within the frame:
      // separating, released. Other vertices within the margin stay candidates, so that a line-search
      // trial that takes them into the collider meets the (one-sided) term at once, and resting
      // contact does not flicker in and out of the set.
      const double separating_speed = ((p - start) / h - pointVelocity(c, s.point)).dot(s.normal);
      if (s.distance > 0 && separating_speed * h > params.margin) continue;
      objective.contacts.push_back({static_cast<int>(v), s.point, s.normal, params.stiffness});
      const double normal_force = params.stiffness * std::max(-s.distance, 0.0);
      if (params.friction > 0 && normal_force > 0)
        objective.frictions.push_back({static_cast<int>(v), start + h * pointVelocity(c, start), s.normal, params.friction * normal_force,
                                       params.slip_speed * h});
    }
  // Candidates coming and going above the surface leave g(x) as it was: only a change of the
  // pushing vertices makes the caller re-evaluate g and restart its L-BFGS history.
  return pushingAt(objective.contacts, x) != pushing_before;
}

}  // namespace qnsim
