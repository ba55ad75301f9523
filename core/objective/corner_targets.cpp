#include "core/objective/corner_targets.h"

#include <algorithm>

namespace qnsim {

CornerTargets cornerTargets(const std::vector<Eigen::Vector4i>& tets, const std::vector<char>& gathered, int parts, int accumulator) {
  const int nt = static_cast<int>(tets.size()), n = static_cast<int>(gathered.size());
  parts = std::max(1, std::min(parts, nt));
  CornerTargets t;
  t.accumulator = accumulator;
  t.part_start.resize(parts + 1);
  for (int p = 0; p <= parts; ++p) t.part_start[p] = static_cast<int>(static_cast<long long>(nt) * p / parts);

  // The one part holding all of a vertex's tets, or -1 (none, or several).
  constexpr int kNone = -2, kSeveral = -1;
  std::vector<int> part_of(n, kNone);
  for (int p = 0; p < parts; ++p)
    for (int e = t.part_start[p]; e < t.part_start[p + 1]; ++e)
      for (int a = 0; a < 4; ++a) {
        int& owner = part_of[tets[e][a]];
        owner = owner == kNone || owner == p ? p : kSeveral;
      }
  t.owned.assign(n, 0);
  t.owned_start.assign(parts + 1, 0);
  for (int v = 0; v < n; ++v)
    if (part_of[v] >= 0 && !gathered[v]) t.owned[v] = 1, ++t.owned_start[part_of[v] + 1];
  for (int p = 0; p < parts; ++p) t.owned_start[p + 1] += t.owned_start[p];
  t.owned_vertex.resize(t.owned_start[parts]);
  std::vector<int> next(t.owned_start.begin(), t.owned_start.end() - 1);
  for (int v = 0; v < n; ++v)
    if (t.owned[v]) t.owned_vertex[next[part_of[v]]++] = v;

  t.slot.resize(4 * static_cast<size_t>(nt));
  for (int e = 0; e < nt; ++e)
    for (int a = 0; a < 4; ++a) t.slot[4 * e + a] = t.owned[tets[e][a]] ? accumulator + tets[e][a] : 4 * e + a;
  return t;
}

}  // namespace qnsim
