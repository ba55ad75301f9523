// The physics against theory (docs/validation.md): each material's first Piola-Kirchhoff stress under
// uniaxial stretch and simple shear against its textbook closed form in F; Young's modulus and Poisson's
// ratio in SI units; and bars of tets against beam theory on small meshes (experiments/validation.h;
// `qnsim experiment validation` runs the larger ones).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "core/math/svd3.h"
#include "experiments/validation.h"
#include "qnsim/error.h"
#include "tests/material_fixtures.h"

namespace qnsim {
namespace {

// R of the polar decomposition F = R S (F not inverted).
Mat3 rotationOf(const Mat3& F) {
  const Svd3 svd = svd3(F);
  return svd.U * svd.V.transpose();
}

// The textbook forms (Sifakis and Barbic 2012; Stomakhin et al. 2012; Bonet and Wood), written in F
// with no singular values: what each model's Valanis-Landel form (paper Eq. 9) must reproduce.
struct ClosedForm {
  const char* model;
  std::vector<std::pair<std::string, double>> params;
  std::function<Mat3(const Mat3&)> P;
};

std::vector<ClosedForm> closedForms() {
  const double mu = 3e5, lambda = 7e5, mu10 = 1e5, mu01 = 4e4;
  const auto inverseTranspose = [](const Mat3& F) -> Mat3 { return F.inverse().transpose(); };
  return {
      {"corotated",
       {{"mu", mu}, {"lambda", lambda}},
       [=](const Mat3& F) -> Mat3 {
         const Mat3 R = rotationOf(F);
         return 2 * mu * (F - R) + lambda * (R.transpose() * F - Mat3::Identity()).trace() * R;
       }},
      {"fixed_corotated",
       {{"mu", mu}, {"lambda", lambda}},
       [=](const Mat3& F) -> Mat3 {
         const double J = F.determinant();
         return 2 * mu * (F - rotationOf(F)) + lambda * (J - 1) * J * inverseTranspose(F);
       }},
      {"neo_hookean",
       {{"mu", mu}, {"lambda", lambda}},
       [=](const Mat3& F) -> Mat3 { return mu * (F - inverseTranspose(F)) + lambda * std::log(F.determinant()) * inverseTranspose(F); }},
      {"stvk",
       {{"mu", mu}, {"lambda", lambda}},
       [=](const Mat3& F) -> Mat3 {
         const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());
         return F * (2 * mu * E + lambda * E.trace() * Mat3::Identity());
       }},
      // mu10 (I1 - 3) + mu01 (I2 - 3) - (2 mu10 + 4 mu01) log J + lambda/2 log^2 J
      {"mooney_rivlin",
       {{"mu10", mu10}, {"mu01", mu01}, {"lambda", lambda}},
       [=](const Mat3& F) -> Mat3 {
         const double I1 = F.squaredNorm(), logJ = std::log(F.determinant());
         return 2 * mu10 * F + 2 * mu01 * (I1 * F - F * F.transpose() * F) + (lambda * logJ - 2 * mu10 - 4 * mu01) * inverseTranspose(F);
       }},
      {"arap", {{"mu", mu}}, [=](const Mat3& F) -> Mat3 { return 2 * mu * (F - rotationOf(F)); }},
  };
}

Mat3 uniaxial(double s) { return Vec3(s, 1, 1).asDiagonal(); }
Mat3 simpleShear(double gamma) {
  Mat3 F = Mat3::Identity();
  F(0, 1) = gamma;
  return F;
}

// Stretches 0.5-2 and shears whose principal stretches span the same range (gamma = s - 1/s).
TEST(Validation, EveryMaterialsStressMatchesItsClosedFormUnderUniaxialStretchAndSimpleShear) {
  for (const ClosedForm& c : closedForms()) {
    const auto material = test::solid(c.model, c.params);
    for (double s = 0.5; s <= 2.0 + 1e-12; s += 0.05)
      for (const Mat3& F : {uniaxial(s), simpleShear(s - 1.0 / s)}) {
        const Mat3 expected = c.P(F);
        Mat3 P, P_svd;
        material->energyAndStress(F, &P);
        material->SolidMaterial::energyAndStress(F, &P_svd);  // through the SVD (Eq. 9), whatever the model overrides
        const double scale = expected.norm() + 1e-3 * c.params.front().second;
        EXPECT_LT((P - expected).norm(), 1e-9 * scale) << c.model << ", F =\n" << F << "\nP =\n" << P << "\nexpected\n" << expected;
        EXPECT_LT((P_svd - expected).norm(), 1e-9 * scale) << c.model << " through the SVD, F =\n" << F;
      }
  }
}

// The polynomial material (Xu et al. 2015) is defined by its stretches: under F = diag(s, 1, 1) its stress
// is diag(sum_k k mu_k (s - 1)^(k-1), 0, 0).
TEST(Validation, ThePolynomialMaterialsUniaxialStressIsItsPolynomial) {
  const double mu[7] = {0, 0, 2e4, -3e3, 1e5, 5e2, 2e3};
  const auto material = test::solid("polynomial", {{"mu2", mu[2]}, {"mu3", mu[3]}, {"mu4", mu[4]}, {"mu5", mu[5]}, {"mu6", mu[6]}});
  for (double s = 0.5; s <= 2.0 + 1e-12; s += 0.05) {
    double f = 0;
    for (int k = 2; k <= 6; ++k) f += k * mu[k] * std::pow(s - 1, k - 1);
    Mat3 P;
    material->energyAndStress(uniaxial(s), &P);
    EXPECT_NEAR(P(0, 0), f, 1e-9 * (std::abs(f) + 1e3)) << "s = " << s;
    EXPECT_NEAR((P - Vec3(P(0, 0), 0, 0).asDiagonal().toDenseMatrix()).norm(), 0.0, 1e-6) << "s = " << s;
  }
}

// Units: a real material entered by E and nu gets mu and lambda by mu = E / (2 (1 + nu)),
// lambda = E nu / ((1 + nu) (1 - 2 nu)); steel (E = 200 GPa, nu = 0.3) as an engineering handbook gives it.
TEST(Validation, YoungsModulusAndPoissonsRatioGiveTheLameParameters) {
  const LameParameters steel = lameFromYoung(200e9, 0.3);
  EXPECT_NEAR(steel.mu, 76.923e9, 1e6);
  EXPECT_NEAR(steel.lambda, 115.385e9, 1e6);
  // Back to E and nu: E = mu (3 lambda + 2 mu) / (lambda + mu), nu = lambda / (2 (lambda + mu)).
  const LameParameters rubber = lameFromYoung(2e6, 0.49);
  EXPECT_NEAR(rubber.mu * (3 * rubber.lambda + 2 * rubber.mu) / (rubber.lambda + rubber.mu), 2e6, 1e-6);
  EXPECT_NEAR(rubber.lambda / (2 * (rubber.lambda + rubber.mu)), 0.49, 1e-12);
  EXPECT_THROW(lameFromYoung(1e6, 0.5), Error);
  EXPECT_THROW(lameFromYoung(-1e6, 0.3), Error);
}

// The elastica solver itself: Euler-Bernoulli's P L^3 / (3 E I) for a small load, and Bisshopp and
// Drucker's large deflection at P L^2 / (E I) = 1 (their table; Mattiasson 1981 gives the same digits).
TEST(Validation, TheElasticaMatchesLinearTheoryForSmallLoadsAndBisshoppDruckerAtAlphaOne) {
  const ElasticaTip small = elasticaTip(1e-3);
  EXPECT_NEAR(small.across, 1e-3 / 3, 1e-9);
  const ElasticaTip one = elasticaTip(1.0);
  std::printf("elastica at alpha = 1: across %.5f, along %.5f, tip angle %.5f rad\n", one.across, one.along, one.angle);
  EXPECT_NEAR(one.across, 0.30172, 2e-5);
  EXPECT_NEAR(one.along, 0.05643, 2e-5);
  EXPECT_NEAR(one.angle, 0.46135, 2e-5);
}

TEST(Validation, RichardsonExtrapolationRecoversTheLimitOfAPowerLaw) {
  const double h[3] = {1.0 / 2, 1.0 / 3, 1.0 / 4};
  double v[3];
  for (int i = 0; i < 3; ++i) v[i] = 7.0 - 3.0 * std::pow(h[i], 1.7);
  EXPECT_NEAR(extrapolateToZero(h, v), 7.0, 1e-9);
}

// ---- Bars of tets against beam theory (small meshes; the experiment runs 2, 4 and 6 cells across) ----

Bar bar(int cells, double poisson = 0.3) {
  Bar b;
  b.cells = cells;
  b.poisson = poisson;
  return b;
}

// Linear tets are stiff in bending: the tip sags less than the Timoshenko beam (Euler-Bernoulli plus
// the shear term) and converges to it from below as the mesh is refined, the error shrinking to less than
// two fifths from 2 to 4 cells across (the experiment's 2, 4 and 6 cells extrapolate to within 1.3 %).
TEST(Validation, CantileverTipDeflectionConvergesToTimoshenkoTheoryUnderRefinement) {
  const double theory = cantileverSelfWeightDeflection(bar(2), 9.81);
  double d[3];
  for (int i = 0; i < 3; ++i) d[i] = cantileverDeflection(bar(i + 2));
  std::printf("cantilever tip / theory (%.4g m) on 2, 3, 4 cells: %.4f %.4f %.4f\n", theory, d[0] / theory, d[1] / theory, d[2] / theory);
  EXPECT_LT(d[0], d[1]);
  EXPECT_LT(d[1], d[2]);
  EXPECT_LT(d[2], theory);
  EXPECT_LT(theory - d[2], 0.4 * (theory - d[0]));
  EXPECT_GT(d[2], 0.85 * theory);
}

// A bar hanging under its own weight stretches by rho g L^2 / (2 E): the real stiffness of a material
// entered by E (here 150 MPa). With nu = 0 nothing constrains the section and the mesh gets it within
// 0.5 %; with nu = 0.3 the held face cannot contract sideways, which stiffens the bar slightly.
TEST(Validation, HangingBarStretchesByItsOwnWeightAsTheoryAndTheYoungsModulusSay) {
  const double theory = hangingBarStretch(bar(2), 9.81);
  const double free_section = hangingStretch(bar(2, 0.0)), held_section = hangingStretch(bar(2, 0.3));
  std::printf("hanging bar stretch / theory (%.4g m): nu = 0 %.4f, nu = 0.3 %.4f\n", theory, free_section / theory, held_section / theory);
  EXPECT_NEAR(free_section / theory, 1.0, 0.005);
  EXPECT_NEAR(held_section / theory, 1.0, 0.03);
  EXPECT_LT(held_section, free_section);
}

// Saint-Venant torsion of a square bar, T = 0.1406 G a^4 theta / L, for a small twist (1.15 degrees):
// coarse tets are far too stiff in torsion, and three meshes converge to the theory within 3 %.
TEST(Validation, TwistedBarTorqueConvergesToSaintVenantTorsion) {
  const double twist = 0.02, theory = saintVenantTorque(bar(2), twist), h[3] = {1.0 / 2, 1.0 / 3, 1.0 / 4};
  double t[3];
  for (int i = 0; i < 3; ++i) {
    const TorsionResult r = twistedBarTorque(bar(i + 2), twist);
    EXPECT_NEAR(r.twist, twist, 1e-3 * twist) << "the held faces turn as asked";
    t[i] = r.torque * twist / r.twist;
  }
  std::printf("torque / theory (%.4g N m): %.4f %.4f %.4f, extrapolated %.4f\n", theory, t[0] / theory, t[1] / theory, t[2] / theory,
              extrapolateToZero(h, t) / theory);
  EXPECT_GT(t[0], t[1]);
  EXPECT_GT(t[1], t[2]);
  EXPECT_GT(t[2], theory);
  EXPECT_NEAR(extrapolateToZero(h, t) / theory, 1.0, 0.03);
}

// The first bending frequency, from the tip's zero crossings under implicit midpoint, is above Euler-
// Bernoulli's by the mesh's excess stiffness: within 3 % of f_EB sqrt(delta_EB / delta_mesh), the static
// sag measured on the same mesh (Rayleigh's quotient), so mass and stiffness are consistent.
TEST(Validation, FirstBendingFrequencyMatchesTheoryScaledByTheMeshsStiffness) {
  for (int cells : {2, 3}) {
    const Bar b = bar(cells);
    const double f = cantileverOscillation(b, 2, 40).frequency,
                 stiffness = cantileverSelfWeightDeflection(b, 9.81) / cantileverDeflection(b);
    const double expected = cantileverFirstFrequency(b) * std::sqrt(stiffness);
    std::printf("%d cells: first frequency %.4f Hz, Euler-Bernoulli %.4f Hz, scaled by the mesh's stiffness %.4f Hz\n", cells, f,
                cantileverFirstFrequency(b), expected);
    EXPECT_NEAR(f / expected, 1.0, 0.03) << cells << " cells";
    EXPECT_GT(f, cantileverFirstFrequency(b));
  }
}

// The tip load's large deflection has the elastica's shape: from P L^2 / (E I) = 1 to 3 the deflection
// across grows by 2.0 times (linear theory: 3), and the tip moves towards the clamp by a fifth of L.
TEST(Validation, LargeDeflectionFollowsTheElastica) {
  Bar slender = bar(3, 0.0);
  slender.height = slender.width = 0.05;
  const double unit = slender.young * slender.inertia() / (slender.length * slender.length);
  const ElasticaTip one = tipLoadDeflection(slender, unit), three = tipLoadDeflection(slender, 3 * unit);
  const ElasticaTip e1 = elasticaTip(1), e3 = elasticaTip(3);
  std::printf("alpha 1 -> 3: across %.4f -> %.4f (elastica %.4f -> %.4f), along %.4f -> %.4f (elastica %.4f -> %.4f)\n", one.across,
              three.across, e1.across, e3.across, one.along, three.along, e1.along, e3.along);
  EXPECT_NEAR((three.across / one.across) / (e3.across / e1.across), 1.0, 0.1);
  EXPECT_NEAR(three.along / e3.along, 1.0, 0.3);
  EXPECT_GT(three.along, 3 * one.along) << "the shortening grows faster than the load";
}

// Energy of an undamped bar swinging on a hinge, one second: backward Euler loses a third of it and
// more, BDF2 a tenth of that, implicit midpoint keeps it within 10 % throughout (it is symplectic).
TEST(Validation, IntegratorsEnergyBackwardEulerDampsBdf2LessMidpointKeepsIt) {
  Bar swinging = bar(2);
  swinging.young = 1e7;
  const double scale = swinging.density * swinging.area() * swinging.length * 9.81 * swinging.length / 2;
  const auto change = [&](const char* integrator) {
    const std::vector<double> e = swingingBarEnergy(swinging, integrator, 30, 1.0 / 30);
    double worst = 0;
    for (double v : e) worst = std::max(worst, std::abs(v - e[0]) / scale);
    return std::pair{(e.back() - e[0]) / scale, worst};
  };
  const auto be = change("backward_euler"), bdf2 = change("bdf2"), midpoint = change("implicit_midpoint");
  std::printf("energy change after 1 s / (m g L/2): backward Euler %+.3f, BDF2 %+.3f, implicit midpoint %+.3f (largest %.3f)\n", be.first,
              bdf2.first, midpoint.first, midpoint.second);
  EXPECT_LT(be.first, -0.3);
  EXPECT_LT(std::abs(bdf2.first), 0.1 * std::abs(be.first));
  EXPECT_LT(midpoint.second, 0.1);
}

}  // namespace
}  // namespace qnsim
