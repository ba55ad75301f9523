#include "core/collision/box_grid.h"

#include <algorithm>
#include <cmath>

namespace qnsim {
namespace {
constexpr long kMaxCells = 512;   // a box over more cells is tested against every query instead
constexpr long kCellsPerBox = 16;  // the grid has at most this many cells per listed box (and 4096)
constexpr double kCoordinateLimit = 1e9;  // cell coordinates are clamped to this: beyond the grid either way
}  // namespace

BoxGrid::Cell BoxGrid::cellOf(const Vec3& p) const {
  return ((p - origin_).array() / cell_).floor().max(-kCoordinateLimit).min(kCoordinateLimit).cast<int>();
}

bool BoxGrid::tooLarge(const Cell& lo, const Cell& hi) { return (hi - lo + 1).cast<long>().prod() > kMaxCells; }

// A box is listed under the cells its low corner takes while the box stays in reach of a query one
// cell wider below, from its low corner to its high corner less a cell: one cell for a box no larger
// than a cell, instead of up to eight.
void BoxGrid::listedCells(const Aabb& box, Cell& lo, Cell& hi) const {
  lo = cellOf(box.min());
  hi = cellOf((box.max().array() - cell_).max(box.min().array()).matrix());
}

// A box spanning too many cells, or not finite, is kept apart with the large ones.
bool BoxGrid::spansFewCells(const Aabb& box, Cell& lo, Cell& hi) const {
  if (!box.min().allFinite() || !box.max().allFinite()) return false;
  listedCells(box, lo, hi);
  return !tooLarge(lo, hi);
}

// The grid covers the listed cells of the boxes that span few cells. Its cells are `cell` or, where
// those boxes spread over more cells than the grid may hold, a power of two times it: larger cells
// only add candidates.
void BoxGrid::placeGrid(const std::vector<Aabb>& boxes, double cell) {
  Vec3 low = Vec3::Constant(INFINITY), high = Vec3::Constant(-INFINITY);
  long listed = 0;
  cell_ = cell;
  origin_.setZero();
  for (const Aabb& b : boxes) {
    Cell lo, hi;
    if (!spansFewCells(b, lo, hi)) continue;
    low = low.cwiseMin(b.min());
    high = high.cwiseMax((b.max().array() - cell_).max(b.min().array()).matrix());
    ++listed;
  }
  if (listed == 0) low = high = Vec3::Zero();
  const long most = std::max(kCellsPerBox * listed, 4096L);
  for (;; cell_ *= 2) {
    const Eigen::Array3d cells = ((high - low).array() / cell_).floor() + 1;
    if (cells.prod() <= static_cast<double>(most)) {
      dims_ = cells.cast<int>();
      break;
    }
  }
  origin_ = low;
}

void BoxGrid::build(const std::vector<Aabb>& boxes, double cell) {
  boxes_ = &boxes;
  placeGrid(boxes, cell);
  large_.clear();
  // Entries grouped by cell (a counting sort), cells in x-fastest order: the cells of a query's row
  // along x hold one run of entries.
  cell_start_.assign(static_cast<size_t>(dims_.cast<long>().prod()) + 1, 0);
  staged_.clear();
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    Cell lo, hi;  // a box that spanned too many of the first cells may lie beyond the grid
    if (!spansFewCells(boxes[i], lo, hi) || (lo < 0).any() || (hi >= dims_).any()) {
      large_.push_back(i);
      continue;
    }
    for (int z = lo.z(); z <= hi.z(); ++z)
      for (int y = lo.y(); y <= hi.y(); ++y)
        for (int x = lo.x(); x <= hi.x(); ++x) {
          const int index = indexOf(Cell(x, y, z));
          const int earlier = (x > lo.x()) | (y > lo.y()) << 1 | (z > lo.z()) << 2;
          ++cell_start_[index + 1];
          staged_.push_back({index, {boxes[i], i, x * 8 + earlier}});
        }
  }
  for (size_t k = 1; k < cell_start_.size(); ++k) cell_start_[k] += cell_start_[k - 1];
  entries_.resize(staged_.size());
  fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (const auto& [index, entry] : staged_) entries_[fill_[index]++] = entry;
}

void BoxGrid::query(const Aabb& box, std::vector<int>& out, int after) const {
  const std::vector<Aabb>& boxes = *boxes_;
  // A box listed under cells [l, h] overlaps `box` only if l <= box.max and h >= box.min - cell.
  const Cell lo = cellOf((box.min().array() - cell_).matrix()).max(0), hi = cellOf(box.max()).min(dims_ - 1);
  const bool beside = (lo > hi).any();  // of the grid: only the large boxes can overlap it
  if (!box.min().allFinite() || !box.max().allFinite() || (!beside && tooLarge(lo, hi))) {  // test them all
    for (int i = after + 1; i < static_cast<int>(boxes.size()); ++i)
      if (boxes[i].intersects(box)) out.push_back(i);
    return;
  }
  for (int z = lo.z(); z <= hi.z() && !beside; ++z)
    for (int y = lo.y(); y <= hi.y(); ++y) {
      const int row = indexOf(Cell(lo.x(), y, z));
      const int first = cell_start_[row], end = cell_start_[row + hi.x() - lo.x() + 1];
      // Reported from the first cell both boxes cover only, so once: an entry whose box has a cell
      // before this one along y (z) is left to that cell unless this row is the query's first along y
      // (z); along x, unless this cell is the query's first along x.
      const int repeated = (y > lo.y()) << 1 | (z > lo.z()) << 2, first_x = lo.x() * 8;
      // Each entry written, and kept by advancing past it, without a branch (see overlap).
      size_t kept = out.size();
      out.resize(kept + static_cast<size_t>(end - first));
      for (int e = first; e < end; ++e) {
        const Entry& entry = entries_[e];
        out[kept] = entry.index;
        const bool once = ((entry.place & repeated) == 0) & (((entry.place & 1) == 0) | ((entry.place & ~7) == first_x));
        kept += (entry.index > after) & once & overlap(entry.box, box);
      }
      out.resize(kept);
    }
  for (int i : large_)
    if (i > after && boxes[i].intersects(box)) out.push_back(i);
}

}  // namespace qnsim
