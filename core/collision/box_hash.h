#pragma once
// A spatial hash of axis-aligned boxes on a uniform grid. A box is listed under the cell of its low
// corner, and under more cells only when it is larger than a cell; a query looks one cell further down
// to meet them. Entries are grouped by slot (a counting sort), so a query reads each slot's in a row.
// A query returns the boxes that overlap a box, each once: a pair is reported only from the first
// cell both cover, so no duplicates need removing. Boxes listed under very many cells are kept apart
// and tested against every query, so one fast-moving primitive cannot flood the grid.
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
  void listedCells(const Aabb& box, Cell& lo, Cell& hi) const;

  const std::vector<Aabb>* boxes_ = nullptr;
  double cell_ = 1.0;
  int slot_bits_ = 0;
  struct Entry {
    Cell cell, lowest;  // the cell listed under, and the box's first listed cell (read here, not looked up)
    int box;
  };
  std::vector<int> slot_start_;  // per slot: its first entry; the last is the number of entries
  std::vector<Entry> entries_;   // grouped by slot
  std::vector<std::pair<size_t, Entry>> staged_;  // build's scratch: entries with their slots, in box order
  std::vector<int> fill_;                         // build's scratch: each slot's next free entry
  std::vector<int> large_;  // boxes over too many cells
};

}  // namespace qnsim
