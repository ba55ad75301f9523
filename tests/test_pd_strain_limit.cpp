// The Projective Dynamics strain-limit material (pd_strain_limit, S2 Fig. 11) as a PD energy:
// its stress is the finite-difference gradient in both regimes (limit inactive, stretched past
// sigma_max, compressed below sigma_min, inverted); Psi = w_a/2 |F - R|^2 + w_s/2 |F - P(F)|^2 with P
// the nearest matrix whose stretches lie in [sigma_min, sigma_max]; its weight in L is w_a + w_s, so
// x - A^-1 grad g is one local/global step and PD decreases g monotonically; and its defaults are the
// least-squares fit of the default polynomial material (fitStrainLimit).
#include <gtest/gtest.h>

#include "core/material/models.h"
#include "core/material/stiffness_fit.h"
#include "core/material/valanis_landel.h"
#include "core/objective/objective.h"
#include "core/solver/system_matrix.h"
#include "qnsim/simulation.h"
#include "tests/material_fixtures.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

constexpr double kArap = 2.0, kLimit = 7.0, kMin = 0.8, kMax = 1.3;

std::unique_ptr<SolidMaterial> strainLimit() {
  return test::solid("pd_strain_limit", {{"arap_weight", kArap}, {"limit_weight", kLimit}, {"sigma_min", kMin}, {"sigma_max", kMax}});
}

// F = R1 diag(s) R2 with the given stretches.
Mat3 deformation(const Vec3& s, std::mt19937& rng) { return test::randomRotation(rng) * s.asDiagonal() * test::randomRotation(rng).transpose(); }

// Stretches inside the limits, above sigma_max, below sigma_min (compression), both, and inverted.
const std::vector<Vec3> kRegimes = {Vec3(1.1, 0.95, 0.85), Vec3(1.5, 1.1, 0.9), Vec3(1.0, 0.6, 0.7), Vec3(1.45, 1.0, 0.5),
                                    Vec3(1.2, 0.9, -0.3)};

TEST(PdStrainLimit, StressIsTheEnergyGradientWhetherTheLimitIsActiveOrNot) {
  const auto m = strainLimit();
  std::mt19937 rng(21);
  const double h = 1e-6;
  for (const Vec3& s : kRegimes)
    for (int trial = 0; trial < 10; ++trial) {
      const Mat3 F = deformation(s, rng);
      Mat3 P, fd;
      m->energyAndStress(F, &P);
      for (int i = 0; i < 9; ++i) {
        Mat3 dF = Mat3::Zero();
        dF(i % 3, i / 3) = h;
        fd(i % 3, i / 3) = (m->energyAndStress(F + dF, nullptr) - m->energyAndStress(F - dF, nullptr)) / (2 * h);
      }
      EXPECT_LE((P - fd).norm(), 1e-7 * std::max(1.0, P.norm())) << "stretches " << s.transpose();
    }
}

TEST(PdStrainLimit, EnergyIsTheWeightedSquaredDistanceToBothProjections) {
  const auto m = strainLimit();
  std::mt19937 rng(22);
  for (const Vec3& s : kRegimes) {
    const Mat3 F = deformation(s, rng);
    const Mat3 R = projectStretches(F, 1.0, 1.0), P = projectStretches(F, kMin, kMax);
    const double expected = 0.5 * kArap * (F - R).squaredNorm() + 0.5 * kLimit * (F - P).squaredNorm();
    Mat3 stress;
    EXPECT_NEAR(m->energyAndStress(F, &stress), expected, 1e-12 * std::max(1.0, expected)) << s.transpose();
    // The PD gradient: sum_j w_j (F - p_j), the force of each constraint towards its projection.
    EXPECT_LE((stress - kArap * (F - R) - kLimit * (F - P)).norm(), 1e-12 * std::max(1.0, stress.norm())) << s.transpose();
    const bool inside = (s.array() >= kMin).all() && (s.array() <= kMax).all();
    EXPECT_EQ((F - P).norm() < 1e-12, inside) << "the limit is inactive exactly inside [sigma_min, sigma_max]: " << s.transpose();
  }
}

// P(F) is a proper matrix with stretches in the interval, and no other such matrix is nearer F.
TEST(PdStrainLimit, ProjectionLiesInTheConstraintSetAndIsNearest) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> inside(kMin, kMax);
  for (const Vec3& s : kRegimes) {
    const Mat3 F = deformation(s, rng), P = projectStretches(F, kMin, kMax);
    const Vec3 sigma = svd3(P).sigma;
    EXPECT_GT(P.determinant(), 0) << s.transpose();
    EXPECT_GE(sigma.minCoeff(), kMin - 1e-12) << s.transpose();
    EXPECT_LE(sigma.maxCoeff(), kMax + 1e-12) << s.transpose();
    for (int trial = 0; trial < 2000; ++trial) {
      const Mat3 Q = deformation(Vec3(inside(rng), inside(rng), inside(rng)), rng);
      ASSERT_GE((F - Q).norm(), (F - P).norm() - 1e-12) << s.transpose();
    }
  }
  const Mat3 F = deformation(Vec3(1.2, 0.7, 1.0), rng);
  const Mat3 R = projectStretches(F, 1.0, 1.0);
  EXPECT_LE((R.transpose() * R - Mat3::Identity()).norm(), 1e-12) << "[1, 1] is ARAP's rotation";
}

TEST(PdStrainLimit, StressFunctionIsPiecewiseLinearWithTheWeightsAsSlopes) {
  const auto m = strainLimit();
  EXPECT_NEAR(stressFunction(*m, 1.2), kArap * 0.2, 1e-12);
  EXPECT_NEAR(stressFunction(*m, 1.5), kArap * 0.5 + kLimit * (1.5 - kMax), 1e-12);
  EXPECT_NEAR(stressFunction(*m, 0.5), kArap * -0.5 + kLimit * (0.5 - kMin), 1e-12);
  EXPECT_EQ(*m->projectiveWeight(), kArap + kLimit);
  EXPECT_EQ(solidStiffness(*m, {0.5, 1.5}), kArap + kLimit) << "a PD energy's k is its weights, not the fit of Eq. 11";
  EXPECT_LT(fitStiffness(*m, {0.5, 1.5}), kArap + kLimit);
  const auto arap = test::solid("arap", {{"mu", 3}});
  EXPECT_EQ(solidStiffness(*arap, {0.8, 1.2}), 6.0);
  EXPECT_FALSE(test::solid("neo_hookean", {})->isProjective());
}

// The defaults are the fit of the default polynomial material over the paper's [0.5, 1.5], rounded;
// a pd_strain_limit material is its own best fit.
TEST(PdStrainLimit, DefaultsApproximateThePolynomialMaterialAndTheFitRecoversItsOwnCurve) {
  const auto polynomial = makeMaterial("polynomial");
  const StrainLimitFit fit = fitStrainLimit(static_cast<const SolidMaterial&>(*polynomial), {0.5, 1.5});
  const auto defaults = makeMaterial("pd_strain_limit");
  EXPECT_NEAR(defaults->get("arap_weight"), fit.arap_weight, 0.005 * fit.arap_weight);
  EXPECT_NEAR(defaults->get("limit_weight"), fit.limit_weight, 0.005 * fit.limit_weight);
  EXPECT_NEAR(defaults->get("sigma_min"), fit.sigma_min, 0.001);
  EXPECT_NEAR(defaults->get("sigma_max"), fit.sigma_max, 0.001);
  EXPECT_NEAR(fit.sigma_min + fit.sigma_max, 2.0, 1e-3) << "4 mu (x - 1)^3 is odd about x = 1";
  EXPECT_LT(fit.rel_error, 0.1);
  const StrainLimitFit self = fitStrainLimit(*strainLimit(), {0.5, 1.5});
  EXPECT_NEAR(self.arap_weight, kArap, 1e-3);
  EXPECT_NEAR(self.limit_weight, kLimit, 1e-2);
  EXPECT_NEAR(self.sigma_min, kMin, 1e-3);
  EXPECT_NEAR(self.sigma_max, kMax, 1e-3);
  EXPECT_LT(self.rel_error, 1e-3);
}

std::string boxScene() {
  return test::boxSceneJson(R"({"model": "pd_strain_limit", "arap_weight": 2e3, "limit_weight": 3e4, "sigma_min": 0.9, "sigma_max": 1.1})");
}

// x - A^-1 grad g = A^-1 (w M y + sum_e V_e G_e^T (w_a R_e + w_s P_e)) + attachments: the global step
// after the local step's two projections per tet (claim C1 for this material).
TEST(PdStrainLimit, QuasiNewtonStepIsOneLocalGlobalIteration) {
  BuiltModel built = test::buildInline(boxScene());
  const Model& model = built.model;
  Objective objective(model);
  std::mt19937 rng(24);
  objective.setInertia(test::perturbed(model.rest, 0.05, rng), 900.0);
  SystemMatrix system(model, 900.0);
  for (int trial = 0; trial < 10; ++trial) {
    const VecX x = test::perturbed(model.rest, 0.15, rng);
    VecX d;
    objective.evaluate(x, &d);
    system.solve(d);
    VecX rhs = VecX::Zero(x.size());
    for (int v = 0; v < model.vertexCount(); ++v) vertex(rhs, v) = 900.0 * model.mass[v] * vertex(objective.inertiaTarget(), v);
    for (const Attachment& a : model.attachments) vertex(rhs, a.vertex) += a.stiffness * a.target;
    for (int e = 0; e < model.tets.size(); ++e) {
      const Mat3 F = model.tets.deformationGradient(x, e);
      const Mat3 p = 2e3 * projectStretches(F, 1.0, 1.0) + 3e4 * projectStretches(F, 0.9, 1.1);
      Eigen::Matrix<double, 4, 3> g;
      g.bottomRows<3>() = model.tets.rest_inverse[e];
      g.row(0) = -g.bottomRows<3>().colwise().sum();
      for (int a = 0; a < 4; ++a) vertex(rhs, model.tets.vertices[e][a]) += model.tets.volume[e] * p * g.row(a).transpose();
    }
    system.solve(rhs);
    EXPECT_LE((x - d - rhs).norm(), 1e-10 * rhs.norm()) << "trial " << trial;
  }
}

TEST(PdStrainLimit, ProjectiveDynamicsDecreasesTheObjectiveMonotonically) {
  for (const char* method : {"pd", "qn"}) {
    Scene scene = parseScene(boxScene(), "box.json");
    applyOverride(scene, "solver.method", method);
    applyOverride(scene, "solver.iterations", "15");
    Simulation sim(scene);
    double largest_strain = 0;
    for (int frame = 0; frame < 40; ++frame) {
      sim.step();
      const auto& its = sim.lastSolve().iterations;
      for (size_t k = 1; k < its.size(); ++k)
        ASSERT_LE(its[k].g, its[k - 1].g + 1e-12 * std::abs(its[k - 1].g)) << method << " frame " << frame << " iteration " << k;
      for (int e = 0; e < sim.model().tets.size(); ++e)
        largest_strain = std::max(largest_strain, (svd3(sim.model().tets.deformationGradient(sim.positions(), e)).sigma.array() - 1).abs().maxCoeff());
    }
    EXPECT_GT(largest_strain, 0.1) << method << ": the box should sag past the limits so both regimes are solved";
    EXPECT_EQ(sim.lastFrame().factorizations, 1) << method;
    EXPECT_TRUE(sim.positions().allFinite()) << method;
  }
}

}  // namespace
}  // namespace qnsim
