#pragma once
// Where the tets' corner forces go on their way into the gradient (Objective). The tets are split into
// parts of consecutive tets, each evaluated by one thread at a time. A vertex whose tets all lie in one
// part, and that no spring touches, is owned by that part: its corner forces are added straight into its
// accumulator, in tet order, as the part is evaluated. Every other corner force is stored in its slot and
// gathered per vertex afterwards, in tet order too. Either way a vertex's force is the same additions in
// the same order, so the result does not depend on the split (nor on the thread count); owning saves
// storing 12 doubles a tet and reading them back scattered.
#include <vector>

#include <Eigen/Core>

namespace qnsim {

struct CornerTargets {
  std::vector<int> part_start;       // part p: tets [part_start[p], part_start[p + 1])
  std::vector<int> owned_start;      // part p owns the vertices owned_vertex[owned_start[p] .. owned_start[p + 1])
  std::vector<int> owned_vertex;
  std::vector<int> slot;             // per corner 4 e + a: accumulator + v where owned, else 4 e + a (stored)
  std::vector<char> owned;           // per vertex
  int accumulator = 0;               // the slot of vertex 0's accumulator
  int parts() const { return static_cast<int>(part_start.size()) - 1; }
  bool addsInto(int slot_index) const { return slot_index >= accumulator; }
};

// `tets` split into `parts` near-equal ranges (at least one); `gathered[v]` keeps vertex v from being owned
// (other elements add to it). Vertex v's accumulator is slot `accumulator` + v.
CornerTargets cornerTargets(const std::vector<Eigen::Vector4i>& tets, const std::vector<char>& gathered, int parts, int accumulator);

}  // namespace qnsim
