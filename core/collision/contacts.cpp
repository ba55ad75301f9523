#include "core/collision/contacts.h"

#include <algorithm>
#include <cmath>

#include "core/common/parallel.h"

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

constexpr int kGrain = 256;  // vertices per parallel chunk

// One chunk's contacts with one collider, in vertex order.
struct ChunkContacts {
  std::vector<ContactTerm> contacts;
  std::vector<FrictionTerm> frictions;
};

void findContacts(const Collider& c, int first, int last, const VecX& x, const VecX& previous, const ContactParams& params,
                  ChunkContacts& out) {
  const double h = params.time_step;
  for (int v = first; v < last; ++v) {
    const Vec3 p = vertex(x, v), start = vertex(previous, v);
    if (!mayReach(c, p, params.margin)) continue;  // farther than the margin
    const SurfacePoint s = closestSurfacePoint(c, p);
    if (s.distance > params.margin) continue;
    // Above the surface and moving away from it fast enough to leave the margin within the frame:
    // separating, released. Other vertices within the margin stay candidates, so that a line-search
    // trial that takes them into the collider meets the (one-sided) term at once, and resting
    // contact does not flicker in and out of the set.
    const double separating_speed = ((p - start) / h - pointVelocity(c, s.point)).dot(s.normal);
    if (s.distance > 0 && separating_speed * h > params.margin) continue;
    out.contacts.push_back({v, s.point, s.normal, params.stiffness});
    const double normal_force = params.stiffness * std::max(-s.distance, 0.0);
    if (params.friction > 0 && normal_force > 0)
      out.frictions.push_back({v, start + h * pointVelocity(c, start), s.normal, params.friction * normal_force, params.slip_speed * h});
  }
}

}  // namespace

bool refreshContacts(const std::vector<Collider>& colliders, const VecX& x, const VecX& previous, const ContactParams& params,
                     Objective& objective) {
  const std::vector<int> pushing_before = pushingAt(objective.contacts, x);
  objective.contacts.clear();
  objective.frictions.clear();
  // Fixed chunks of vertices, concatenated in order: the terms come in collider, then vertex order
  // for any thread count.
  const int n = static_cast<int>(x.size() / 3), chunks = (n + kGrain - 1) / kGrain;
  // Kept with its capacity (the set is refreshed every iteration); the workers use the caller's.
  thread_local std::vector<ChunkContacts> kept;
  std::vector<ChunkContacts>& found = kept;
  found.resize(chunks);
  for (const Collider& c : colliders) {
    parallelFor(chunks, 1, [&](int begin, int end) {
      for (int chunk = begin; chunk < end; ++chunk) {
        found[chunk].contacts.clear();
        found[chunk].frictions.clear();
        findContacts(c, chunk * kGrain, std::min(n, (chunk + 1) * kGrain), x, previous, params, found[chunk]);
      }
    });
    for (const ChunkContacts& chunk : found) {
      objective.contacts.insert(objective.contacts.end(), chunk.contacts.begin(), chunk.contacts.end());
      objective.frictions.insert(objective.frictions.end(), chunk.frictions.begin(), chunk.frictions.end());
    }
  }
  // Candidates coming and going above the surface leave g(x) as it was: only a change of the
  // pushing vertices makes the caller re-evaluate g and restart its L-BFGS history.
  return pushingAt(objective.contacts, x) != pushing_before;
}

}  // namespace qnsim
