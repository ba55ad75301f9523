#include "core/model/inversion_bound.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "core/common/parallel.h"
#include "core/common/simd.h"
#include "core/model/inversion_bound_kernels.h"

namespace qnsim {
namespace {

// Below this det F a tet takes no flattening step (inversion_bound.h). The rounding of x + alpha d moves
// a tet's det F by about 10^-14 at a scene's sizes; det F 10^-13 was seen turned over.
constexpr double kFlat = 1e-9;

double cubic(const std::array<double, 4>& c, double t) { return ((c[3] * t + c[2]) * t + c[1]) * t + c[0]; }

// A tet flatter than kFlat (its cubic c, det Ds = 6 V det F at t = 0) that the step flattens further.
bool flattensFlatTet(const double* c, double volume) { return c[0] < 6 * volume * kFlat && c[1] < 0; }

}  // namespace

double firstCubicRoot(double c0, double c1, double c2, double c3, double max_alpha) {
  const std::array<double, 4> c = {c0, c1, c2, c3};
  // Turning points: roots of 3 c3 t^2 + 2 c2 t + c1 inside (0, max_alpha), in order, then max_alpha.
  std::array<double, 3> ends{};
  int count = 0;
  auto inside = [&](double t) {
    if (t > 0 && t < max_alpha) ends[count++] = t;
  };
  const double qa = 3 * c3, qb = 2 * c2, qc = c1;
  if (qa != 0) {
    const double disc = qb * qb - 4 * qa * qc;
    if (disc >= 0) {
      const double q = -0.5 * (qb + std::copysign(std::sqrt(disc), qb));  // the stable pair of roots
      if (q != 0) inside(q / qa), inside(qc / q);
    }
  } else if (qb != 0) {
    inside(-qc / qb);
  }
  if (count == 2 && ends[1] < ends[0]) std::swap(ends[0], ends[1]);
  ends[count++] = max_alpha;
  double lo = 0;
  for (int k = 0; k < count; ++k) {  // the cubic is monotone on [lo, hi]
    double hi = ends[k];
    if (cubic(c, hi) > 0) {
      lo = hi;
      continue;
    }
    for (int step = 0; step < 100 && hi - lo > 1e-15 * max_alpha; ++step) {
      const double mid = 0.5 * (lo + hi);
      (cubic(c, mid) > 0 ? lo : hi) = mid;
    }
    return lo;  // positive at lo: never past the root
  }
  return max_alpha;
}

double inversionStepBound(const TetElements& tets, const VecX& x, const VecX& d, double max_alpha, double keep, double floor) {
  const int n = tets.size();
  if (n == 0) return max_alpha;
  constexpr int kGrain = 256;
  const int chunks = (n + kGrain - 1) / kGrain;
  std::vector<double> chunk_min(chunks, max_alpha);
  // Each chunk of tets from max_alpha, whichever thread runs it: the roots' bisection ends relative to
  // the bound it is given, so a bound carried over from another chunk would change the result's bits.
  const auto det_cubics = avx2Available() ? inversion_avx2::detCubics : inversion_portable::detCubics;
  const int* vertices = tets.vertices.front().data();
  parallelFor(chunks, 1, [&](int begin, int end) {
    std::array<double, 4 * kGrain> cubics;  // det(Ds(x) + t Ds(d)) of the chunk's tets
    for (int chunk = begin; chunk < end; ++chunk) {
      double alpha = max_alpha;
      const int first = chunk * kGrain, last = std::min(n, (chunk + 1) * kGrain);
      det_cubics(vertices, x.data(), d.data(), first, last, cubics.data());
      for (int e = first; e < last; ++e) {
        if (tets.removed[e]) continue;
        // det F has det Ds's sign: every mesh is oriented positively at rest (mesh_check.h), so det Dm^-1 > 0.
        const double* c = &cubics[4 * (e - first)];
        if (!(c[0] > 0)) continue;
        if (flattensFlatTet(c, tets.volume[e])) {
          alpha = 0;
          break;
        }
        // det Ds = 6 V det F: the level det F = the smaller of floor and half of det F at x.
        const double level = floor > 0 ? std::min(6 * tets.volume[e] * floor, 0.5 * c[0]) : 0.0;
        // |c1| t + |c2| t^2 + |c3| t^3 below c0 - level on [0, alpha]: no root there, nothing to find.
        if (((std::abs(c[3]) * alpha + std::abs(c[2])) * alpha + std::abs(c[1])) * alpha < c[0] - level) continue;
        const double root = firstCubicRoot(c[0] - level, c[1], c[2], c[3], alpha);
        if (root < alpha) alpha = keep * root;
      }
      chunk_min[chunk] = alpha;
    }
  });
  return *std::min_element(chunk_min.begin(), chunk_min.end());
}

std::vector<int> stoppingTets(const TetElements& tets, const VecX& x, const VecX& d, double reach) {
  std::vector<std::pair<double, int>> stopping;  // (the tet's first root, the tet)
  std::array<double, 4> c{};
  for (int e = 0; e < tets.size(); ++e) {
    if (tets.removed[e]) continue;
    inversion_portable::detCubics(tets.vertices.front().data(), x.data(), d.data(), e, e + 1, c.data());
    if (!(c[0] > 0)) continue;
    const double root = flattensFlatTet(c.data(), tets.volume[e]) ? 0.0 : firstCubicRoot(c[0], c[1], c[2], c[3], reach);
    if (root < reach) stopping.emplace_back(root, e);
  }
  std::sort(stopping.begin(), stopping.end());
  std::vector<int> sorted(stopping.size());
  for (std::size_t i = 0; i < stopping.size(); ++i) sorted[i] = stopping[i].second;
  return sorted;
}

bool turnsTetOver(const TetElements& tets, const VecX& from, const VecX& to) {
  std::vector<char> turned(tets.size(), 0);  // det Ds has det F's sign (inversionStepBound)
  parallelFor(tets.size(), 1024, [&](int begin, int end) {
    for (int e = begin; e < end; ++e)
      turned[e] = !tets.removed[e] && tets.deformedEdges(from, e).determinant() > 0 && !(tets.deformedEdges(to, e).determinant() > 0);
  });
  return std::find(turned.begin(), turned.end(), 1) != turned.end();
}

Eigen::Matrix<double, 12, 1> detGradient(const TetElements& tets, const VecX& x, int e) {
  const Mat3 Ds = tets.deformedEdges(x, e);
  Mat3 cofactor;
  cofactor.col(0) = Ds.col(1).cross(Ds.col(2));
  cofactor.col(1) = Ds.col(2).cross(Ds.col(0));
  cofactor.col(2) = Ds.col(0).cross(Ds.col(1));
  Eigen::Matrix<double, 12, 1> gradient;
  gradient.segment<3>(0) = -(cofactor.col(0) + cofactor.col(1) + cofactor.col(2));
  for (int k = 0; k < 3; ++k) gradient.segment<3>(3 * k + 3) = cofactor.col(k);
  return gradient;
}

}  // namespace qnsim
