// The self-collisions' grid of boxes (core/collision/box_grid.h) against a brute-force search: every
// overlapping box once, for boxes smaller than a cell, spanning several cells, over too many cells to
// be listed, and on either side of the origin.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/collision/box_grid.h"

namespace qnsim {
namespace {

Aabb randomBox(std::mt19937& rng, double extent) {
  std::uniform_real_distribution<double> where(-3.0, 3.0), size(0.0, extent);
  const Vec3 low(where(rng), where(rng), where(rng));
  return Aabb(low, low + Vec3(size(rng), size(rng), size(rng)));
}

std::vector<int> bruteForce(const std::vector<Aabb>& boxes, const Aabb& query, int after) {
  std::vector<int> out;
  for (int i = after + 1; i < static_cast<int>(boxes.size()); ++i)
    if (boxes[i].intersects(query)) out.push_back(i);
  return out;
}

TEST(BoxGrid, FindsEveryOverlappingBoxOnceAtAnyCellSize) {
  std::mt19937 rng(3);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 600; ++i) boxes.push_back(randomBox(rng, i % 50 == 0 ? 4.0 : i % 3 == 0 ? 0.8 : 0.15));
  boxes.push_back(Aabb(Vec3(0.5, 0.5, 0.5), Vec3(0.5, 0.5, 0.5)));  // a point
  boxes.push_back(Aabb(Vec3(-1, 0, 0), Vec3(1, 0, 0)));            // a flat box along x
  for (double cell : {0.05, 0.2, 0.5, 2.0}) {
    BoxGrid grid;
    grid.build(boxes, cell);
    int found = 0;
    for (int q = 0; q < 300; ++q) {
      Aabb query = randomBox(rng, q % 10 == 0 ? 2.0 : 0.3);
      if (q % 37 == 0) query.translate(Vec3(50.0, -50.0, 0.0));  // beside the grid
      const int after = q % 4 == 0 ? static_cast<int>(rng() % boxes.size()) : -1;
      std::vector<int> out;
      grid.query(query, out, after);
      std::vector<int> sorted = out;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "cell " << cell << ", query " << q << ": a box twice";
      EXPECT_EQ(sorted, bruteForce(boxes, query, after)) << "cell " << cell << ", query " << q;
      found += static_cast<int>(out.size());
    }
    EXPECT_GT(found, 150) << "cell " << cell;  // the queries meet boxes
  }
}

// Boxes that touch at a face, an edge or a corner overlap (closed intervals), also across a cell's border.
TEST(BoxGrid, BoxesTouchingAcrossACellBorderOverlap) {
  const std::vector<Aabb> boxes = {Aabb(Vec3(0.0, 0.0, 0.0), Vec3(1.0, 1.0, 1.0)), Aabb(Vec3(2.0, 2.0, 2.0), Vec3(2.5, 2.5, 2.5))};
  BoxGrid grid;
  grid.build(boxes, 1.0);
  for (const Vec3& corner : {Vec3(1.0, 0.5, 0.5), Vec3(1.0, 1.0, 0.5), Vec3(1.0, 1.0, 1.0), Vec3(2.0, 2.0, 2.0)}) {
    std::vector<int> out;
    grid.query(Aabb(corner, corner + Vec3(0.3, 0.3, 0.3)), out);
    EXPECT_EQ(out, bruteForce(boxes, Aabb(corner, corner + Vec3(0.3, 0.3, 0.3)), -1)) << corner.transpose();
    EXPECT_EQ(out.size(), 1u) << corner.transpose();
  }
}

// A box far from the others makes the grid's cells larger (it may hold only so many), boxes that are
// not finite are tested against every query (one with a NaN corner overlaps nothing), and the answers
// stay those of a brute-force search.
TEST(BoxGrid, FarApartAndNonFiniteBoxesChangeTheCellsNotTheAnswers) {
  std::mt19937 rng(7);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 200; ++i) boxes.push_back(randomBox(rng, 0.1));
  boxes.push_back(Aabb(Vec3(1e7, 0, 0), Vec3(1e7 + 0.1, 0.1, 0.1)));
  boxes.push_back(Aabb(Vec3(-2e8, -5e7, 3e8), Vec3(-2e8, -5e7, 3e8)));
  boxes.push_back(Aabb(Vec3(NAN, 0, 0), Vec3(1, 1, 1)));
  boxes.push_back(Aabb(Vec3(0, 0, 0), Vec3(INFINITY, 1, 1)));
  BoxGrid grid;
  grid.build(boxes, 0.05);
  for (int q = 0; q < 200; ++q) {
    const Aabb query = q == 0 ? Aabb(Vec3(1e7 - 1, -1, -1), Vec3(1e7 + 1, 1, 1)) : randomBox(rng, 0.4);
    std::vector<int> out;
    grid.query(query, out);
    std::sort(out.begin(), out.end());
    EXPECT_EQ(out, bruteForce(boxes, query, -1)) << "query " << q;
    EXPECT_EQ(std::count(out.begin(), out.end(), 202), 0) << "query " << q << ": the box with a NaN corner";
  }
  std::vector<int> out;
  grid.query(Aabb(Vec3(1e7 - 1, -1, -1), Vec3(1e7 + 1, 1, 1)), out);
  EXPECT_EQ(out, std::vector<int>({200, 203})) << "the far box, and the one reaching to infinity";
}

}  // namespace
}  // namespace qnsim
