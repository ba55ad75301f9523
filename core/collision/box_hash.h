#pragma once
// A spatial hash of axis-aligned boxes on a uniform grid: each box is listed under every cell it
// overlaps, in a hash table of chained entries (no sort, no allocation per cell). A query returns the
// boxes that overlap a box, each once: a pair is reported only from the first cell both boxes cover,
// so no duplicates need removing. Boxes spanning very many cells are kept apart and tested against
// every query, so one fast-moving primitive cannot flood the grid.
#include <cstdint>
#include <vector>

#include "core/common/types.h"

namespace qnsim {

using Aabb = Eigen::AlignedBox3d;  // axis-aligned box

class BoxHash {
 public:
  // Rebuilds the hash over `boxes` (kept by reference until the next build) with cubic cells of `cell` (m).
  void build(const std::vector<Aabb>& boxes, double cell);
  // Appends the indices above `after` of the boxes overlapping `box` (closed intervals) to `out`, each
  // once, in an order that depends only on the boxes.
  void query(const Aabb& box, std::vector<int>& out, int after = -1) const;

 private:
  using Cell = Eigen::Array3i;
  Cell cellOf(const Vec3& p) const;
  size_t slotOf(const Cell& cell) const;
  static bool tooLarge(const Cell& lo, const Cell& hi);

  const std::vector<Aabb>* boxes_ = nullptr;
  double cell_ = 1.0;
  int slot_bits_ = 0;
  std::vector<int> head_;     // per slot: its first entry, -1 when empty
  struct Entry {
    Cell cell, lowest;  // the cell listed under, and the box's first cell (read here, not looked up)
    int box, next;
  };
  std::vector<Entry> entries_;
  std::vector<int> large_;  // boxes over too many cells
};

}  // namespace qnsim
