#pragma once
// A uniform grid of axis-aligned boxes over the region they occupy. A box is listed under the cell of
// its low corner, and under more cells only when it is larger than a cell; a query looks one cell
// further down to meet them. Entries are grouped by cell, cells in x-fastest order, so a query reads
// one run of entries per row of cells. A query returns the boxes that overlap a box, each once: a pair
// is reported only from the first cell both cover, so no duplicates need removing. The grid holds at
// most 16 cells per box (larger cells where the boxes spread farther), and boxes over very many cells
// are kept apart and tested against every query, so one fast-moving primitive cannot flood the grid.
#include <vector>

#include "qnsim/types.h"

namespace qnsim {

using Aabb = Eigen::AlignedBox3d;  // axis-aligned box

// Closed boxes overlap, as Aabb::intersects, with all six comparisons and no branch: the loops that
// filter by it keep a third to a half, so a branch per test would often be mispredicted.
inline bool overlap(const Aabb& a, const Aabb& b) {
  return (a.min().x() <= b.max().x()) & (b.min().x() <= a.max().x()) & (a.min().y() <= b.max().y()) & (b.min().y() <= a.max().y()) &
         (a.min().z() <= b.max().z()) & (b.min().z() <= a.max().z());
}

class BoxGrid {
 public:
  // Rebuilds the grid over `boxes` (kept by reference until the next build) with cubic cells of
  // `cell` (m) or, where the boxes spread far, a power of two times it.
  void build(const std::vector<Aabb>& boxes, double cell);
  // Appends the indices above `after` of the boxes overlapping `box` (closed intervals) to `out`, each
  // once, in an order that depends only on the boxes.
  void query(const Aabb& box, std::vector<int>& out, int after = -1) const;

 private:
  using Cell = Eigen::Array3i;
  Cell cellOf(const Vec3& p) const;  // of the grid, from its origin
  int indexOf(const Cell& c) const { return (c.z() * dims_.y() + c.y()) * dims_.x() + c.x(); }
  static bool tooLarge(const Cell& lo, const Cell& hi);
  void listedCells(const Aabb& box, Cell& lo, Cell& hi) const;
  bool spansFewCells(const Aabb& box, Cell& lo, Cell& hi) const;
  void placeGrid(const std::vector<Aabb>& boxes, double cell);

  const std::vector<Aabb>* boxes_ = nullptr;
  double cell_ = 1.0;
  Vec3 origin_ = Vec3::Zero();  // the low corner of cell (0, 0, 0)
  Cell dims_ = Cell::Ones();    // cells along x, y and z
  // A box under one of its cells, with what a query needs to tell whether to report it there, so that
  // a query reads its cells' entries in order and nothing else (reading each entry's box from the
  // boxes' own array cost a tenth of a run with self-contact: docs/contact.md, broad phase).
  struct Entry {
    Aabb box;
    int index;  // of the box
    // The cell's x, times 8, plus a bit per axis along which the box has an earlier listed cell
    // (1: x, 2: y, 4: z): a query reports the box only from the first cell both cover.
    int place;
  };
  std::vector<int> cell_start_;  // per cell: its first entry; the last is the number of entries
  std::vector<Entry> entries_;   // grouped by cell
  std::vector<std::pair<int, Entry>> staged_;  // build's scratch: entries with their cells, in box order
  std::vector<int> fill_;                      // build's scratch: each cell's next free entry
  std::vector<int> large_;  // boxes over too many cells, or not finite
};

}  // namespace qnsim
