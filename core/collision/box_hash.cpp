#include "core/collision/box_hash.h"

#include <algorithm>
#include <cmath>

namespace qnsim {
namespace {
constexpr long kMaxCells = 512;           // a box over more cells is tested against every query instead
constexpr double kCoordinateLimit = 1e6;  // far-away cells are clamped together: that only adds candidates
}  // namespace

BoxHash::Cell BoxHash::cellOf(const Vec3& p) const {
  const auto coordinate = [this](double v) {
    const double c = std::clamp(v / cell_, -kCoordinateLimit, kCoordinateLimit);
    const int i = static_cast<int>(c);
    return i - (c < i);  // floor
  };
  return {coordinate(p.x()), coordinate(p.y()), coordinate(p.z())};
}

size_t BoxHash::slotOf(const Cell& c) const {
  const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.x())) * 73856093u) ^
                            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.y())) * 19349663u) ^
                            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.z())) * 83492791u);
  return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - slot_bits_));
}

bool BoxHash::tooLarge(const Cell& lo, const Cell& hi) { return (hi - lo + 1).cast<long>().prod() > kMaxCells; }

// A box is listed under the cells its low corner takes while the box stays in reach of a query one
// cell wider below, from its low corner to its high corner less a cell: one cell for a box no larger
// than a cell, instead of up to eight.
void BoxHash::listedCells(const Aabb& box, Cell& lo, Cell& hi) const {
  lo = cellOf(box.min());
  hi = cellOf((box.max().array() - cell_).max(box.min().array()).matrix());
}

void BoxHash::build(const std::vector<Aabb>& boxes, double cell) {
  boxes_ = &boxes;
  cell_ = cell;
  entries_.clear();
  large_.clear();
  long count = 0;
  Cell lo, hi;
  for (const Aabb& b : boxes) {
    listedCells(b, lo, hi);
    if (!tooLarge(lo, hi)) count += (hi - lo + 1).cast<long>().prod();
  }
  for (slot_bits_ = 4; (1L << slot_bits_) < 2 * count; ++slot_bits_) {
  }
  // Entries grouped by slot (a counting sort), so that a query reads each slot's entries in a row.
  slot_start_.assign((size_t{1} << slot_bits_) + 1, 0);
  staged_.clear();
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    listedCells(boxes[i], lo, hi);
    if (tooLarge(lo, hi)) {
      large_.push_back(i);
      continue;
    }
    for (int x = lo.x(); x <= hi.x(); ++x)
      for (int y = lo.y(); y <= hi.y(); ++y)
        for (int z = lo.z(); z <= hi.z(); ++z) {
          const Cell c(x, y, z);
          const size_t slot = slotOf(c);
          ++slot_start_[slot + 1];
          staged_.push_back({slot, {c, lo, i}});
        }
  }
  for (size_t k = 1; k < slot_start_.size(); ++k) slot_start_[k] += slot_start_[k - 1];
  entries_.resize(staged_.size());
  fill_.assign(slot_start_.begin(), slot_start_.end() - 1);
  for (const auto& [slot, entry] : staged_) entries_[fill_[slot]++] = entry;
}

void BoxHash::query(const Aabb& box, std::vector<int>& out, int after) const {
  const std::vector<Aabb>& boxes = *boxes_;
  // A box listed under cells [l, h] overlaps `box` only if l <= box.max and h >= box.min - cell.
  const Cell lo = cellOf((box.min().array() - cell_).matrix()), hi = cellOf(box.max());
  if (tooLarge(lo, hi)) {  // as many cells as boxes, or more: test them all
    for (int i = after + 1; i < static_cast<int>(boxes.size()); ++i)
      if (boxes[i].intersects(box)) out.push_back(i);
    return;
  }
  for (int x = lo.x(); x <= hi.x(); ++x)
    for (int y = lo.y(); y <= hi.y(); ++y)
      for (int z = lo.z(); z <= hi.z(); ++z) {
        const Cell c(x, y, z);
        const size_t slot = slotOf(c);
        for (int e = slot_start_[slot]; e < slot_start_[slot + 1]; ++e) {
          const Entry& entry = entries_[e];
          // Reported from the first cell both boxes cover only, so once.
          if (entry.box <= after || (entry.cell != c).any() || (entry.lowest.max(lo) != c).any()) continue;
          if (boxes[entry.box].intersects(box)) out.push_back(entry.box);
        }
      }
  for (int i : large_)
    if (i > after && boxes[i].intersects(box)) out.push_back(i);
}

}  // namespace qnsim
