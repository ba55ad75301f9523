// The pieces of position-based FEM (core/solver/pbd_constraints.h, rotation_estimate.h, coloring.h and the
// Lame fit of xpbd's compliances): constraint gradients against finite differences, the constraints'
// energy against the material it stands for, each projection reducing its constraint, XPBD with zero
// compliance being PBD with stiffness 1, the warm-started rotation estimate converging to the SVD's
// rotation, and the colouring.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "core/material/stiffness_fit.h"
#include "core/material/valanis_landel.h"
#include "core/math/rotation_estimate.h"
#include "core/math/svd3.h"
#include "core/model/coloring.h"
#include "core/scene/catalog.h"
#include "core/solver/pbd_constraints.h"
#include "tests/material_fixtures.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

Mat3 polarRotation(const Mat3& F) {
  const Svd3 svd = svd3(F);
  return svd.U * svd.V.transpose();
}

TEST(PbdConstraints, GradientsMatchFiniteDifferences) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const Mat3 F = test::randomDeformation(rng, trial % 4 == 3);
    Mat3 dC_dF, ignored;
    // With R the polar rotation, R's own derivative drops out of d|F - R(F)|/dF.
    corotationalConstraint(F, polarRotation(F), dC_dF);
    const Mat3 fd = test::finiteDifferenceMatrix([&](const Mat3& G) { return corotationalConstraint(G, polarRotation(G), ignored); }, F);
    EXPECT_LT((dC_dF - fd).norm(), 1e-7) << "co-rotational, trial " << trial;
    volumeConstraint(F, dC_dF);
    EXPECT_LT((dC_dF - test::finiteDifferenceMatrix([&](const Mat3& G) { return volumeConstraint(G, ignored); }, F)).norm(), 1e-7) << trial;
  }
}

TEST(PbdConstraints, VertexGradientsAreTheChainRuleThroughF) {
  const BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "corotated"})"));
  const TetElements& tets = built.model.tets;
  std::mt19937 rng(3);
  const VecX x = test::perturbed(built.model.rest, 0.1, rng);
  const EnergyArgument z{0.5, &built.model.rest};  // an implicit-midpoint-like argument s x + o
  for (int e = 0; e < tets.size(); e += 7) {
    Mat3 dC_dF;
    volumeConstraint(deformationGradient(x, z, tets, e), dC_dF);
    Vec3 gradient[4];
    tetGradient(dC_dF, tets.rest_inverse[e], gradient);
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) {  // dC/dz = (dC/dx) / s
        VecX plus = x, minus = x;
        const double h = 1e-6;
        plus[3 * tets.vertices[e][a] + i] += h;
        minus[3 * tets.vertices[e][a] + i] -= h;
        Mat3 ignored;
        const double fd = (volumeConstraint(deformationGradient(plus, z, tets, e), ignored) -
                           volumeConstraint(deformationGradient(minus, z, tets, e), ignored)) /
                          (2 * h);
        EXPECT_NEAR(z.scale * gradient[a][i], fd, 1e-6) << "tet " << e << ", vertex " << a << ", coordinate " << i;
      }
  }
}

// xpbd's constraints with the compliances 1/(2 mu V) and 1/(lambda V) have exactly the fixed-corotated
// energy V (mu |F - R|^2 + lambda/2 (det F - 1)^2).
TEST(PbdConstraints, ConstraintEnergyIsFixedCorotated) {
  const auto material = test::solid("fixed_corotated", {{"mu", 3}, {"lambda", 7}});
  const double V = 0.2, mu = 3, lambda = 7;
  std::mt19937 rng(9);
  for (int trial = 0; trial < 10; ++trial) {
    const Mat3 F = test::randomDeformation(rng, trial % 3 == 2);
    Mat3 ignored;
    const double deviatoric = corotationalConstraint(F, polarRotation(F), ignored), volumetric = volumeConstraint(F, ignored);
    const double energy = 0.5 * deviatoric * deviatoric * (2 * mu * V) + 0.5 * volumetric * volumetric * (lambda * V);
    EXPECT_NEAR(energy, V * material->energyAndStress(F, nullptr), 1e-12 * (1 + energy)) << trial;
  }
}

// A tet of the test box with its own vertices, deformed, unit masses.
struct OneTet {
  BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "corotated"})"));
  VecX x, inverse_mass;
  int e = test::modelTet(built.model.bodies[0], 5);
  OneTet(double amplitude, unsigned seed) {
    std::mt19937 rng(seed);
    x = test::perturbed(built.model.rest, amplitude, rng);
    inverse_mass = VecX::Ones(built.model.vertexCount());
  }
  PbdPositions positions() { return {x, inverse_mass, {}}; }
  Mat3 F() const { return deformationGradient(x, {}, built.model.tets, e); }
};

TEST(PbdConstraints, ProjectionsReduceTheirConstraint) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    Mat3 ignored;
    OneTet tet(0.08, seed);
    PbdPositions p = tet.positions();
    double lambda = 0;
    const Mat3 R = polarRotation(tet.F());
    const double corotational = corotationalConstraint(tet.F(), R, ignored);
    projectCorotational(p, tet.built.model.tets, tet.e, R, {0.0, 1.0}, lambda);  // all of it only where sum g_a g_a^T / m_a ~ I
    EXPECT_LT(corotationalConstraint(tet.F(), R, ignored), 0.6 * corotational) << seed;

    const double volume = std::abs(volumeConstraint(tet.F(), ignored));
    lambda = 0;
    projectVolume(p, tet.built.model.tets, tet.e, {0.0, 1.0}, lambda);
    EXPECT_LT(std::abs(volumeConstraint(tet.F(), ignored)), 0.1 * volume) << seed;

    // A distance constraint is linear along its gradient: k = 1 satisfies it, k = 1/2 halves it.
    const Eigen::Vector2i spring(0, 1);
    const double rest = 0.7, before = (vertex(tet.x, 0) - vertex(tet.x, 1)).norm() - rest;
    lambda = 0;
    projectDistance(p, spring, rest, {0.0, 0.5}, lambda);
    EXPECT_NEAR((vertex(tet.x, 0) - vertex(tet.x, 1)).norm() - rest, 0.5 * before, 1e-12);
    projectDistance(p, spring, rest, {0.0, 1.0}, lambda);
    EXPECT_NEAR((vertex(tet.x, 0) - vertex(tet.x, 1)).norm() - rest, 0.0, 1e-12);
  }
}

// XPBD's update with compliance 0 is PBD's with stiffness 1, whatever the multiplier has accumulated,
// and a small compliance is close to it.
TEST(PbdConstraints, XpbdWithZeroComplianceIsPbdWithStiffnessOne) {
  OneTet pbd(0.08, 4), xpbd(0.08, 4), soft(0.08, 4);
  PbdPositions a = pbd.positions(), b = xpbd.positions(), c = soft.positions();
  double lambda_pbd = 0, lambda_xpbd = 12.5, lambda_soft = 0;  // a multiplier from earlier sweeps must not matter at alpha~ = 0
  for (int sweep = 0; sweep < 3; ++sweep) {
    projectVolume(a, pbd.built.model.tets, pbd.e, {0.0, 1.0}, lambda_pbd);
    projectVolume(b, xpbd.built.model.tets, xpbd.e, {0.0, 1.0}, lambda_xpbd);
    projectVolume(c, soft.built.model.tets, soft.e, {1e-9, 1.0}, lambda_soft);
  }
  EXPECT_EQ(pbd.x, xpbd.x);
  EXPECT_LT((soft.x - pbd.x).norm(), 1e-7);
  EXPECT_GT((soft.x - pbd.x).norm(), 0.0);
}

// The compliant update's fixed point: a vertex spring of stiffness K~ against inertia settles where
// lambda + K~ (z - t) = 0, in one update for a single term (it is linear).
TEST(PbdConstraints, VertexSpringReachesItsCompliantBalanceInOneUpdate) {
  VecX x = Vec3(1, 2, 3), inverse_mass = VecX::Constant(1, 0.5);
  PbdPositions p{x, inverse_mass, {}};
  Mat3 K = Mat3::Zero();
  K(1, 1) = 4;  // pulls along y only (a wind term's rank-one stiffness)
  Vec3 lambda = Vec3::Zero();
  const Vec3 target(0, 0, 0), start = vertex(x, 0);
  projectVertexSpring(p, 0, K, target, lambda);
  EXPECT_NEAR((lambda + K * (vertex(x, 0) - target)).norm(), 0.0, 1e-12);
  EXPECT_NEAR(vertex(x, 0)[1], start[1] / (1 + 0.5 * 4), 1e-12);  // m (x - x0) = -K x with m = 2
  EXPECT_EQ(vertex(x, 0)[0], start[0]);
  const VecX settled = x;
  projectVertexSpring(p, 0, K, target, lambda);
  EXPECT_LT((x - settled).norm(), 1e-15);
}

// A one-sided constraint (a contact: lambda >= 0) never pulls.
TEST(PbdConstraints, BoundedMultiplierNeverPulls) {
  VecX x = Vec3(0, 0.1, 0), inverse_mass = VecX::Ones(1);
  PbdPositions p{x, inverse_mass, {}};
  const int v = 0;
  const Vec3 normal(0, 1, 0);
  double lambda = 0;
  projectConstraint(p, &v, &normal, 1, 0.1, {0.0, 1.0}, lambda, 0.0);  // above the surface: nothing
  EXPECT_EQ(vertex(x, 0).y(), 0.1);
  projectConstraint(p, &v, &normal, 1, -0.2, {0.0, 1.0}, lambda, 0.0);  // 0.2 below it: pushed out
  EXPECT_NEAR(vertex(x, 0).y(), 0.3, 1e-15);
  EXPECT_NEAR(lambda, 0.2, 1e-15);
}

TEST(RotationEstimate, ConvergesToTheRotationOfTheSvd) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 40; ++trial) {
    const bool inverted = trial % 4 == 3;
    const Mat3 F = test::randomDeformation(rng, inverted);
    Eigen::Quaterniond q(test::randomRotation(rng));  // anywhere: a cold start
    const int iterations = refineRotation(F, q, 500, 1e-14);
    EXPECT_LT(iterations, 500) << trial;
    EXPECT_LT((q.toRotationMatrix() - polarRotation(F)).norm(), 1e-9) << "trial " << trial << (inverted ? " (inverted)" : "");
    EXPECT_NEAR(q.toRotationMatrix().determinant(), 1.0, 1e-12);
  }
}

double degreesBetween(const Mat3& A, const Mat3& B) { return Eigen::AngleAxisd(Mat3(A.transpose() * B)).angle() * 180 / M_PI; }

// Along a motion (a turn of 4 degrees and a changing stretch per frame), the estimate kept from the
// last frame follows the rotation within a few degrees with the PBFE dissertation's single iteration per frame, where one
// iteration from the identity is far off, and it needs fewer iterations to converge.
TEST(RotationEstimate, WarmStartFollowsWithOneIterationPerFrame) {
  int warm_total = 0, cold_total = 0;
  double warm_lag = 0, cold_lag = 0;  // degrees, with one iteration per frame
  Eigen::Quaterniond warm = Eigen::Quaterniond::Identity(), tracked = Eigen::Quaterniond::Identity();
  for (int frame = 0; frame < 60; ++frame) {
    const double t = frame / 30.0;
    const Mat3 R = Eigen::AngleAxisd(4.0 * frame * M_PI / 180.0, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    const Mat3 F = R * Vec3(1 + 0.3 * std::sin(3 * t), 1 - 0.2 * std::sin(2 * t), 1.1).asDiagonal();
    warm_total += refineRotation(F, warm, 1000, 1e-6);
    Eigen::Quaterniond cold = Eigen::Quaterniond::Identity();
    cold_total += refineRotation(F, cold, 1000, 1e-6);
    refineRotation(F, tracked, 1);
    warm_lag = std::max(warm_lag, degreesBetween(tracked.toRotationMatrix(), R));
    Eigen::Quaterniond once = Eigen::Quaterniond::Identity();
    refineRotation(F, once, 1);
    cold_lag = std::max(cold_lag, degreesBetween(once.toRotationMatrix(), R));
  }
  std::printf("one iteration per frame: %.3g degrees off at most warm, %.3g cold; to 1e-6 rad: %d iterations warm, %d cold\n", warm_lag,
              cold_lag, warm_total, cold_total);
  EXPECT_LT(warm_lag, 3.0);
  EXPECT_GT(cold_lag, 10 * warm_lag);
  EXPECT_LT(warm_total, cold_total);
}

TEST(ElementColoring, NoTwoElementsOfAColourShareAVertexAndTheResultIsDeterministic) {
  for (const char* scene : {"hippo", "cloth"}) {
    const BuiltModel built = buildModel(loadScene(catalogScenePath(scene)));
    const Model& model = built.model;
    const std::vector<std::vector<int>> colors = colorElements(model);
    EXPECT_EQ(colors, colorElements(model)) << scene;
    std::vector<int> seen(model.tets.size() + model.springs.size(), 0);
    for (const std::vector<int>& color : colors) {
      std::set<int> vertices;
      for (int e : color) {
        ++seen[e];
        const std::vector<int> own = e < model.tets.size()
                                         ? std::vector<int>(model.tets.vertices[e].data(), model.tets.vertices[e].data() + 4)
                                         : std::vector<int>(model.springs.vertices[e - model.tets.size()].data(),
                                                            model.springs.vertices[e - model.tets.size()].data() + 2);
        for (int v : own) EXPECT_TRUE(vertices.insert(v).second) << scene << ": vertex " << v << " twice in a colour";
      }
    }
    for (size_t e = 0; e < seen.size(); ++e) ASSERT_EQ(seen[e], 1) << scene << ": element " << e;
    // Greedy colouring needs at most one colour more than the most elements one element touches.
    std::vector<int> valence(model.vertexCount(), 0);
    for (const auto& t : model.tets.vertices)
      for (int a = 0; a < 4; ++a) ++valence[t[a]];
    for (const auto& s : model.springs.vertices) ++valence[s[0]], ++valence[s[1]];
    int most = 0;
    for (const auto& t : model.tets.vertices) most = std::max(most, valence[t[0]] + valence[t[1]] + valence[t[2]] + valence[t[3]]);
    for (const auto& s : model.springs.vertices) most = std::max(most, valence[s[0]] + valence[s[1]]);
    std::printf("%s: %zu elements in %zu colours\n", scene, seen.size(), colors.size());
    EXPECT_LE(static_cast<int>(colors.size()), most) << scene;
  }
}

// xpbd's compliances: 2 mu + lambda is the solid's k (Eq. 11) and lambda the slope of the lateral stress.
TEST(LameFit, ExactForCorotatedAndFixedCorotatedAndZeroLambdaForArap) {
  for (const Vec2& interval : {Vec2(0.5, 1.5), Vec2(0.8, 1.2)}) {
    const LameFit corotated = fitLame(*test::solid("corotated", {{"mu", 3}, {"lambda", 7}}), interval);
    EXPECT_NEAR(corotated.mu, 3, 1e-9);
    EXPECT_NEAR(corotated.lambda, 7, 1e-9);
    const LameFit fixed = fitLame(*test::solid("fixed_corotated", {{"mu", 3}, {"lambda", 7}}), interval);
    EXPECT_NEAR(fixed.mu, 3, 1e-9);
    EXPECT_NEAR(fixed.lambda, 7, 1e-9);
    const LameFit arap = fitLame(*test::solid("arap", {{"mu", 3}}), interval);
    EXPECT_NEAR(arap.mu, 3, 1e-12);
    EXPECT_NEAR(arap.lambda, 0, 1e-12);
  }
  // Neo-Hookean's linearisation at rest has the same mu and lambda: a narrow interval approaches them.
  const LameFit neo = fitLame(*test::solid("neo_hookean", {{"mu", 2}, {"lambda", 9}}), Vec2(0.99, 1.01));
  EXPECT_NEAR(neo.mu, 2, 1e-3);
  EXPECT_NEAR(neo.lambda, 9, 1e-2);
  // The paper's polynomial has no stiffness at rest; the fit over the interval still gives it one.
  EXPECT_GT(fitLame(*test::solid("polynomial", {{"mu4", 5}}), Vec2(0.5, 1.5)).mu, 0.0);
}

}  // namespace
}  // namespace qnsim
