// The element pass's vector kernels (core/objective/tet_kernels.h), each build this CPU runs (AVX2, and
// AVX-512 where it has it), against the general path (NeoHookean::energyAndStress, then V P Dm^-T):
// random tets stretched, compressed, below J0 and inverted, over ranges that start and end inside a
// group of lanes; their log against std::log; the two builds against each other, bit for bit; and the
// kernel switches (QNSIM_SIMD=portable, QNSIM_SIMD=avx2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/common/simd.h"
#include "core/material/models.h"
#include "core/math/polar3.h"
#include "core/objective/tet_kernels.h"
#include "qnsim/version.h"
#include "tests/material_fixtures.h"

namespace qnsim {
namespace {

void requireAvx2() {
  if (!avx2Available()) GTEST_SKIP() << "this process runs the portable kernels (no AVX2 with FMA, or QNSIM_SIMD=portable)";
}

struct Tets {
  std::vector<int> vertices;
  std::vector<double> rest_inverse, volume;
  VecX x;
  TetGeometry geometry() const { return {vertices.data(), rest_inverse.data(), volume.data()}; }
  NeoHookeanTets view(const NeoHookean& m) const {
    const NeoHookean::Constants c = m.constants();
    return {{vertices.data(), rest_inverse.data(), volume.data()}, c.mu, c.lambda, c.inversion_j};
  }
};

// Tets over 40 random points; every fifth is flattened below J0 and every seventh turned inside out.
Tets randomTets(int count) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> point(0, 39);
  Tets t;
  t.x = VecX::NullaryExpr(3 * 40, [&] { return unit(random); });
  for (int e = 0; e < count; ++e) {
    int v[4] = {point(random), point(random), point(random), point(random)};
    while (v[1] == v[0]) v[1] = point(random);
    while (v[2] == v[0] || v[2] == v[1]) v[2] = point(random);
    while (v[3] == v[0] || v[3] == v[1] || v[3] == v[2]) v[3] = point(random);
    t.vertices.insert(t.vertices.end(), v, v + 4);
    Mat3 Dm = Mat3::Identity() + 0.3 * Mat3::NullaryExpr([&] { return unit(random); });
    if (e % 5 == 0) Dm.col(2) *= 20.0;   // F's third column small: J near or below J0
    if (e % 7 == 0) Dm.col(0) *= -1.0;   // inverted
    const Mat3 inverse = Dm.inverse();
    t.rest_inverse.insert(t.rest_inverse.end(), inverse.data(), inverse.data() + 9);
    t.volume.push_back(0.1 + 0.05 * unit(random));
  }
  return t;
}

struct Reference {
  double J, energy;
  Mat3 P;
  Mat3 H;  // V P Dm^-T: corners 1-3's forces
};

Reference reference(const Tets& t, const SolidMaterial& m, int e) {
  const int* v = &t.vertices[4 * e];
  Mat3 Ds;
  Ds << vertex(t.x, v[1]) - vertex(t.x, v[0]), vertex(t.x, v[2]) - vertex(t.x, v[0]), vertex(t.x, v[3]) - vertex(t.x, v[0]);
  const Mat3 R = Eigen::Map<const Mat3>(&t.rest_inverse[9 * e]);
  Reference r;
  r.J = (Ds * R).determinant();
  r.energy = t.volume[e] * m.energyAndStress(Ds * R, &r.P);
  r.H = t.volume[e] * r.P * R.transpose();
  return r;
}

// Every model with a strain-polynomial form, the polynomial with each power.
std::vector<std::pair<std::string, std::vector<std::pair<std::string, double>>>> strainPolynomialModels() {
  return {{"corotated", {{"mu", 3e4}, {"lambda", 7e4}}},
          {"arap", {{"mu", 2e4}}},
          {"polynomial", {{"mu4", 1e6}}},
          {"polynomial", {{"mu2", 0.5}, {"mu3", 0.2}, {"mu4", 3}, {"mu5", 0.1}, {"mu6", 0.3}}}};
}

double relativeDifference(double a, double b, double scale) { return std::abs(a - b) / std::max(scale, 1e-300); }

// The kernel builds this CPU runs: AVX2's, and AVX-512's where the CPU has it (whatever QNSIM_SIMD
// says: the tests try every build the processor can run).
struct Build {
  const char* name;
  const TetKernels* kernels;
};
std::vector<Build> buildsToTest() {
  std::vector<Build> builds;
  if (!avx2Available()) return builds;
  builds.push_back({"AVX2", &tet_avx2::kernels});
  if (tet_avx512::kernels.neoHookeanPass && __builtin_cpu_supports("avx512f")) builds.push_back({"AVX512", &tet_avx512::kernels});
  return builds;
}

class TetKernel : public ::testing::TestWithParam<Build> {};
INSTANTIATE_TEST_SUITE_P(Builds, TetKernel, ::testing::ValuesIn(buildsToTest()),
                         [](const ::testing::TestParamInfo<Build>& param) { return std::string(param.param.name); });
// No build to test where the portable kernels run.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TetKernel);

TEST_P(TetKernel, NeoHookeanPassMatchesTheGeneralPathToRoundOff) {
  const TetKernels& kernels = *GetParam().kernels;
  const auto material = test::solid("neo_hookean", {{"mu", 2e5}, {"lambda", 9e5}, {"inversion_j", 0.2}});
  const auto& nh = static_cast<const NeoHookean&>(*material);
  const int count = 61;
  const Tets t = randomTets(count);
  std::vector<double> energy(count, -1.0), stress(9 * count, -1.0), force(12 * count, -1.0);
  int below_J0 = 0;
  for (const auto& [begin, end] : {std::pair{0, 3}, std::pair{3, 30}, std::pair{30, 61}}) {
    kernels.neoHookeanPass(t.view(nh), t.x.data(), begin, end, {energy.data(), stress.data(), nullptr});
    kernels.neoHookeanPass(t.view(nh), t.x.data(), begin, end, {energy.data(), nullptr, force.data()});
  }
  for (int e = 0; e < count; ++e) {
    const Reference r = reference(t, nh, e);
    const Mat3 P = Eigen::Map<const Mat3>(&stress[9 * e]);
    below_J0 += r.J < nh.constants().inversion_j;
    EXPECT_LT(relativeDifference(energy[e], r.energy, std::abs(r.energy)), 1e-12) << "tet " << e;
    EXPECT_LT((P - r.P).norm() / r.P.norm(), 1e-12) << "tet " << e;
    Eigen::Matrix<double, 3, 4> f = Eigen::Map<const Eigen::Matrix<double, 3, 4>>(&force[12 * e]);
    EXPECT_LT((f.rightCols<3>() - r.H).norm() / r.H.norm(), 1e-12) << "tet " << e;
    EXPECT_LT((f.col(0) + r.H.rowwise().sum()).norm() / r.H.norm(), 1e-12) << "tet " << e;
  }
  EXPECT_GT(below_J0, 5) << "the sample must reach the log's quadratic continuation";
}

TEST_P(TetKernel, EveryTetGivesTheSameBitsWhereverItsRangeSplits) {
  const TetKernels& kernels = *GetParam().kernels;
  const auto material = test::solid("neo_hookean", {{"mu", 3e4}, {"lambda", 1e5}});
  const auto& nh = static_cast<const NeoHookean&>(*material);
  const int count = 23;
  const Tets t = randomTets(count);
  std::vector<double> whole(12 * count), split(12 * count), energy(count), energy_split(count);
  kernels.neoHookeanPass(t.view(nh), t.x.data(), 0, count, {energy.data(), nullptr, whole.data()});
  for (int first = 0; first < count; first += 3)
    kernels.neoHookeanPass(t.view(nh), t.x.data(), first, std::min(first + 3, count), {energy_split.data(), nullptr, split.data()});
  EXPECT_EQ(std::memcmp(whole.data(), split.data(), whole.size() * sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(energy.data(), energy_split.data(), energy.size() * sizeof(double)), 0);
}

TEST_P(TetKernel, WritesNothingOutsideItsRange) {
  const TetKernels& kernels = *GetParam().kernels;
  const auto material = test::solid("neo_hookean", {});
  const auto& nh = static_cast<const NeoHookean&>(*material);
  const Tets t = randomTets(12);
  std::vector<double> energy(12, 7.0), stress(9 * 12, 7.0), force(12 * 12, 7.0);
  kernels.neoHookeanPass(t.view(nh), t.x.data(), 5, 10, {energy.data(), stress.data(), nullptr});
  kernels.neoHookeanPass(t.view(nh), t.x.data(), 5, 10, {energy.data(), nullptr, force.data()});
  for (int e = 0; e < 12; ++e) {
    const bool inside = e >= 5 && e < 10;
    EXPECT_EQ(energy[e] != 7.0, inside) << "tet " << e;
    for (int k = 0; k < 9; ++k) EXPECT_EQ(stress[9 * e + k] != 7.0, inside) << "tet " << e;
    for (int k = 0; k < 12; ++k) EXPECT_EQ(force[12 * e + k] != 7.0, inside) << "tet " << e;
  }
}

TEST_P(TetKernel, NonFinitePositionsGiveNonFiniteEnergies) {
  const TetKernels& kernels = *GetParam().kernels;
  const auto material = test::solid("neo_hookean", {});
  const auto& nh = static_cast<const NeoHookean&>(*material);
  Tets t = randomTets(8);
  t.x[3 * t.vertices[4 * 2 + 1]] = std::numeric_limits<double>::quiet_NaN();
  t.x[3 * t.vertices[4 * 6 + 3] + 1] = std::numeric_limits<double>::infinity();
  std::vector<double> energy(8);
  kernels.neoHookeanPass(t.view(nh), t.x.data(), 0, 8, {energy.data(), nullptr, nullptr});
  for (int e = 0; e < 8; ++e) {
    bool touched = false;
    for (int a = 0; a < 4; ++a) touched |= !vertex(t.x, t.vertices[4 * e + a]).allFinite();
    EXPECT_EQ(std::isfinite(energy[e]), !touched) << "tet " << e;
  }
}

TEST_P(TetKernel, LogMatchesStdLogToRoundOff) {
  const TetKernels& kernels = *GetParam().kernels;
  std::mt19937 random(3);
  std::uniform_real_distribution<double> exponent(-300.0, 300.0), near_one(-1e-3, 1e-3);
  std::vector<double> x = {1.0, 2.0, 0.5, 1.4142135623730951, 1.4142135623730949, 0.7071067811865476, 1e-3, 0.9, 1.1,
                           1.0 + 1e-15, 1.0 - 1e-15, std::numeric_limits<double>::max(), std::numeric_limits<double>::min()};
  for (int i = 0; i < 4000; ++i) x.push_back(std::pow(10.0, exponent(random)));
  for (int i = 0; i < 4000; ++i) x.push_back(1.0 + near_one(random));
  while (x.size() % 4) x.push_back(1.0);
  double worst = 0.0;
  for (size_t i = 0; i < x.size(); i += 4) {
    double result[4];
    kernels.log4(&x[i], result);
    for (int k = 0; k < 4; ++k) {
      const double expected = std::log(x[i + k]);
      const double error = expected == 0.0 ? std::abs(result[k]) : std::abs(result[k] - expected) / std::abs(expected);
      worst = std::max(worst, error);
      EXPECT_LE(error, 4 * std::numeric_limits<double>::epsilon()) << "log " << x[i + k];
    }
  }
  RecordProperty("worst_relative_error", std::to_string(worst));
  const double special[4] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(), 1.0, 4.0};
  double result[4];
  kernels.log4(special, result);
  EXPECT_EQ(result[0], std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(result[1]));
  EXPECT_EQ(result[2], 0.0);
}

// The strain-polynomial kernel (core/material/strain_polynomial_kernels.h), through each model's batch
// call, against the model's one-element path: random F, a flat one and one with no rotation (F = 0,
// which the SVD handles), over a count that ends inside a group of four.
TEST(StrainKernel, EachModelsBatchMatchesItsOneElementPathToRoundOff) {
  requireAvx2();
  std::mt19937 random(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Mat3> F;
  for (int i = 0; i < 37; ++i) F.push_back(Mat3::Identity() + 0.4 * Mat3::NullaryExpr([&] { return unit(random); }));
  F[7].col(2) *= 0.01;
  F[20].setZero();
  for (const auto& [model, params] : strainPolynomialModels()) {
    const auto material = test::solid(model, params);
    std::vector<double> psi(F.size());
    std::vector<Mat3> P(F.size());
    material->energiesAndStresses(F.data(), static_cast<int>(F.size()), psi.data(), P.data());
    std::vector<double> energy_only(F.size());
    material->energiesAndStresses(F.data(), static_cast<int>(F.size()), energy_only.data(), nullptr);
    for (size_t i = 0; i < F.size(); ++i) {
      Mat3 expected_P;
      const double expected = material->energyAndStress(F[i], &expected_P);
      EXPECT_LE(std::abs(psi[i] - expected), 1e-12 * std::max(1.0, std::abs(expected))) << model << " element " << i;
      EXPECT_LE((P[i] - expected_P).norm(), 1e-12 * std::max(1.0, expected_P.norm())) << model << " element " << i;
      EXPECT_EQ(energy_only[i], psi[i]) << model << " element " << i;
    }
  }
}

// The strain-polynomial element pass (tet_kernels.h) against each model's general path (the material's
// energyAndStress, then V P Dm^-T) on random tets, inverted and flattened ones among them, every third
// of another region (a stiffer corotated one) in the same pass: those it must hand back as
// unrotated, the others to round-off; and its forces from kept stresses, one tet at a time or a
// range, bit for bit.
TEST_P(TetKernel, StrainPolynomialPassMatchesTheGeneralPathToRoundOff) {
  const TetKernels& kernels = *GetParam().kernels;
  const int count = 61;
  const Tets t = randomTets(count);
  std::vector<int> region(count);
  for (int e = 0; e < count; ++e) region[e] = e % 3 == 1;
  const auto other = test::solid("corotated", {{"mu", 5e5}, {"lambda", 2e6}});
  for (const auto& [model, params] : strainPolynomialModels()) {
    const auto material = test::solid(model, params);
    const SolidMaterial* of_region[2] = {material.get(), other.get()};
    const StrainPolynomial forms[2] = {*static_cast<const StrainPolynomialMaterial&>(*material).polynomialForm(),
                                       *static_cast<const StrainPolynomialMaterial&>(*other).polynomialForm()};
    const StrainPolynomialTets view{t.geometry(), region.data(), forms, 2, kPolarMinDet};
    std::vector<double> energy(count, -1.0), stress(9 * count, -1.0), force(12 * count, -1.0), kept(12 * count, -2.0);
    std::vector<int> unrotated;
    for (const auto& [begin, end] : {std::pair{0, 3}, std::pair{3, 30}, std::pair{30, 61}}) {
      std::vector<int> found(end - begin);
      const int n = kernels.strainPolynomialPass(view, t.x.data(), begin, end, {energy.data(), stress.data(), nullptr}, found.data());
      unrotated.insert(unrotated.end(), found.begin(), found.begin() + n);
      EXPECT_EQ(kernels.strainPolynomialPass(view, t.x.data(), begin, end, {energy.data(), nullptr, force.data()}, found.data()), n);
    }
    kernels.forcesFromStresses(view.geometry, stress.data(), 0, count, kept.data(), 0);
    EXPECT_EQ(std::memcmp(force.data(), kept.data(), force.size() * sizeof(double)), 0) << model;
    int inverted = 0;
    for (int e = 0; e < count; ++e) {
      const Reference r = reference(t, *of_region[region[e]], e);
      const bool handed_back = std::find(unrotated.begin(), unrotated.end(), e) != unrotated.end();
      EXPECT_EQ(handed_back, r.J < kPolarMinDet) << model << " tet " << e << ", J " << r.J;
      inverted += r.J < 0;
      if (handed_back) continue;
      const Mat3 P = Eigen::Map<const Mat3>(&stress[9 * e]);
      EXPECT_LT(relativeDifference(energy[e], r.energy, std::abs(r.energy)), 1e-12) << model << " tet " << e;
      EXPECT_LT((P - r.P).norm() / r.P.norm(), 1e-12) << model << " tet " << e;
      Eigen::Matrix<double, 3, 4> f = Eigen::Map<const Eigen::Matrix<double, 3, 4>>(&force[12 * e]);
      EXPECT_LT((f.rightCols<3>() - r.H).norm() / r.H.norm(), 1e-12) << model << " tet " << e;
      double one[12];
      kernels.forcesFromStress(view.geometry, e, &stress[9 * e], one);
      EXPECT_EQ(std::memcmp(one, &force[12 * e], sizeof one), 0) << model << " tet " << e;
    }
    EXPECT_GT(inverted, 5) << "the sample must hold inverted tets";
  }
}

// Each tet's results are the same bits in a pass of any length and start (the kernel takes four tets
// at a time, and lanes past the range repeat its last tet), its forces written to a buffer of the range.
TEST_P(TetKernel, StrainPolynomialPassGivesEachTetTheSameBitsWhereverItsRangeSplits) {
  const TetKernels& kernels = *GetParam().kernels;
  const int count = 29;
  const Tets t = randomTets(count);
  const std::vector<int> region(count, 0);
  const auto material = test::solid("polynomial", {{"mu2", 0.5}, {"mu4", 3}, {"mu6", 0.3}});
  const StrainPolynomial form = *static_cast<const StrainPolynomialMaterial&>(*material).polynomialForm();
  const StrainPolynomialTets view{t.geometry(), region.data(), &form, 1, kPolarMinDet};
  std::vector<double> whole(12 * count), split(12 * count), energy(count), energy_split(count);
  std::vector<int> unrotated(count), scratch(count);
  const int n = kernels.strainPolynomialPass(view, t.x.data(), 0, count, {energy.data(), nullptr, whole.data()}, unrotated.data());
  int n_split = 0;
  for (int first = 0, size = 1; first < count; first += size, size = size % 9 + 1) {
    const int end = std::min(first + size, count);
    std::vector<double> range(12 * (end - first));  // the range's forces only, from its first tet's
    n_split += kernels.strainPolynomialPass(view, t.x.data(), first, end, {energy_split.data(), nullptr, range.data(), first}, scratch.data());
    std::copy(range.begin(), range.end(), split.begin() + 12 * first);
  }
  EXPECT_EQ(n, n_split);
  for (int e = 0; e < count; ++e) {
    if (std::find(unrotated.begin(), unrotated.begin() + n, e) != unrotated.begin() + n) continue;
    EXPECT_EQ(std::memcmp(&whole[12 * e], &split[12 * e], 12 * sizeof(double)), 0) << "tet " << e;
    EXPECT_EQ(std::memcmp(&energy[e], &energy_split[e], sizeof(double)), 0) << "tet " << e;
  }
}

// Every output of every kernel, of tets that start and end inside a group of either width, inverted
// and flattened ones among them, NaN and infinite positions too: the AVX-512 build's bits are the
// AVX2 build's, so the processor does not change a result.
TEST(TetKernelBuilds, Avx512GivesEachTetTheBitsOfAvx2) {
  const std::vector<Build> builds = buildsToTest();
  if (builds.size() < 2) GTEST_SKIP() << "this CPU runs no AVX-512 (or no AVX2): one build only";
  const TetKernels &avx2 = *builds[0].kernels, &avx512 = *builds[1].kernels;
  const int count = 61;
  Tets t = randomTets(count);
  t.x[3 * t.vertices[4 * 40 + 2]] = std::numeric_limits<double>::quiet_NaN();
  t.x[3 * t.vertices[4 * 50 + 1] + 2] = -std::numeric_limits<double>::infinity();
  const auto same = [](const std::vector<double>& a, const std::vector<double>& b) {
    return std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
  };
  struct Outputs {
    std::vector<double> energy, stress, force, kept;
    std::vector<int> unrotated;
    explicit Outputs(int n) : energy(n, -1.0), stress(9 * n, -1.0), force(12 * n, -1.0), kept(12 * n, -2.0), unrotated(n, -1) {}
  };
  const auto neoHookean = test::solid("neo_hookean", {{"mu", 2e5}, {"lambda", 9e5}, {"inversion_j", 0.2}});
  const auto polynomial = test::solid("polynomial", {{"mu2", 0.5}, {"mu4", 3}, {"mu6", 0.3}});
  const StrainPolynomial form = *static_cast<const StrainPolynomialMaterial&>(*polynomial).polynomialForm();
  const std::vector<int> region(count, 0);
  const StrainPolynomialTets view{t.geometry(), region.data(), &form, 1, kPolarMinDet};
  const NeoHookeanTets nh = t.view(static_cast<const NeoHookean&>(*neoHookean));
  const auto run = [&](const TetKernels& build, Outputs& out) {
    for (const auto& [begin, end] : {std::pair{0, 3}, std::pair{3, 30}, std::pair{30, 61}}) {
      build.neoHookeanPass(nh, t.x.data(), begin, end, {out.energy.data(), out.stress.data(), out.force.data()});
      build.forcesFromStresses(t.geometry(), out.stress.data(), begin, end, out.kept.data(), 0);
    }
    std::vector<double> nh_energy = out.energy, nh_force = out.force;
    const TetPassOutput all{out.energy.data(), out.stress.data(), out.force.data()};
    const int n = build.strainPolynomialPass(view, t.x.data(), 0, count, all, out.unrotated.data());
    out.unrotated.resize(n);
    out.energy.insert(out.energy.end(), nh_energy.begin(), nh_energy.end());
    out.force.insert(out.force.end(), nh_force.begin(), nh_force.end());
  };
  Outputs a(count), b(count);
  run(avx2, a);
  run(avx512, b);
  EXPECT_TRUE(same(a.energy, b.energy));
  EXPECT_TRUE(same(a.stress, b.stress));
  EXPECT_TRUE(same(a.force, b.force));
  EXPECT_TRUE(same(a.kept, b.kept));
  EXPECT_EQ(a.unrotated, b.unrotated);
  std::vector<double> x(400), log_a(400), log_b(400);
  for (int i = 0; i < 400; ++i) x[i] = std::pow(10.0, 0.37 * i - 74.0);
  for (int i = 0; i < 400; i += 4) avx2.log4(&x[i], &log_a[i]), avx512.log4(&x[i], &log_b[i]);
  EXPECT_TRUE(same(log_a, log_b));
}

TEST(VectorKernels, QnsimSimdChoosesTheKernels) {
  const char* choice = std::getenv("QNSIM_SIMD");
  if (choice && std::strcmp(choice, "portable") == 0) {
    EXPECT_FALSE(avx2Available());
    EXPECT_FALSE(avx512Available());
    EXPECT_STREQ(vectorKernels(), "portable");
    EXPECT_EQ(tetKernels(), nullptr);
    return;
  }
  if (choice && std::strcmp(choice, "avx2") == 0) {
    EXPECT_FALSE(avx512Available());
  }
  EXPECT_STREQ(vectorKernels(), avx512Available() ? "AVX-512+FMA" : avx2Available() ? "AVX2+FMA" : "portable");
  EXPECT_EQ(tetKernels() != nullptr, avx2Available());
  if (avx512Available()) {
    EXPECT_EQ(tetKernels()->strainPolynomialPass, tet_avx512::kernels.strainPolynomialPass);
  }
}

}  // namespace
}  // namespace qnsim
