// The spring kernel's two builds (core/objective/spring_kernels.h) against the spring energy written
// out with Eigen: random springs, a removed one and a zero-length one, over ranges that start and end
// inside a group of four.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/common/simd.h"
#include "core/objective/spring_kernels.h"
#include "qnsim/types.h"

namespace qnsim {
namespace {

struct Springs {
  std::vector<int> vertices, region;
  std::vector<double> rest_length, region_stiffness = {2000.0, 20.0};
  std::vector<char> removed;
  VecX x;
  SpringView view() const {
    return {vertices.data(), rest_length.data(), region.data(), removed.data(), region_stiffness.data()};
  }
};

Springs randomSprings(int vertex_count, int count) {
  std::mt19937 random(7);
  std::uniform_int_distribution<int> vertex(0, vertex_count - 1);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Springs s;
  s.x = VecX::NullaryExpr(3 * vertex_count, [&] { return unit(random); });
  for (int i = 0; i < count; ++i) {
    const int a = vertex(random);
    int b = vertex(random);
    if (i == 5) b = a;  // zero length: no direction, no force
    s.vertices.insert(s.vertices.end(), {a, b});
    s.rest_length.push_back(0.5 + 0.5 * unit(random));
    s.region.push_back(i % 2);
    s.removed.push_back(i == 9);
  }
  // The last vertex's coordinates end the array: a load past them would be out of bounds.
  s.vertices[0] = vertex_count - 1;
  return s;
}

TEST(SpringKernels, BothBuildsMatchTheSpringEnergy) {
  const Springs s = randomSprings(40, 37);
  const int n = static_cast<int>(s.rest_length.size()), begin = 1, end = n - 2;
  for (const auto kernel : {spring_portable::springForces, spring_avx2::springForces}) {
    if (kernel == spring_avx2::springForces && !avx2Available()) continue;
    std::vector<double> energy(n, -1.0), force(3 * n, -1.0);
    kernel(s.view(), s.x.data(), begin, end, energy.data(), force.data());
    for (int i = 0; i < n; ++i) {
      if (i < begin || i >= end) {  // outside the range nothing is written
        EXPECT_EQ(energy[i], -1.0);
        for (int c = 0; c < 3; ++c) EXPECT_EQ(force[3 * i + c], -1.0);
        continue;
      }
      const Vec3 d = vertex(s.x, s.vertices[2 * i]) - vertex(s.x, s.vertices[2 * i + 1]);
      const double k = s.removed[i] ? 0.0 : s.region_stiffness[s.region[i]], stretch = d.norm() - s.rest_length[i];
      const Vec3 f = d.norm() > 0 ? Vec3(k * stretch / d.norm() * d) : Vec3::Zero();
      EXPECT_NEAR(energy[i], 0.5 * k * stretch * stretch, 1e-12 * (1.0 + k)) << "spring " << i;
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(force[3 * i + c], f[c], 1e-12 * (1.0 + k)) << "spring " << i;
    }
  }
  if (!avx2Available()) GTEST_SKIP() << "this CPU has no AVX2 with FMA: only the portable kernel ran";
}

}  // namespace
}  // namespace qnsim
