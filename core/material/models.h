#pragma once
// The built-in material models. Each is small; see the .cpp of each for its a, b, c (Eq. 9).
#include <optional>

#include "core/material/strain_polynomial_kernels.h"
#include "qnsim/material.h"

namespace qnsim {

// The declarations shared by several models, bound to each model's own member.
template <class M>
MaterialParameter declareMu(double M::*member);
template <class M>
MaterialParameter declareLambda(double M::*member);
template <class M>
MaterialParameter declareInversionJ(double M::*member);

// An energy that is a polynomial in the strain E = S - I, with S = R^T F the stretch of the polar
// decomposition F = R S (its eigenvalues are the stretches s_i): psi(E) and G = dpsi/dE in matrix
// products, and P = R G, need no SVD, only R (polar3.h), about twice as fast. Inverted and nearly flat
// elements take the Valanis-Landel form through the SVD, the same function.
class StrainPolynomialMaterial : public SolidMaterial {
 public:
  double energyAndStress(const Mat3& F, Mat3* P) const override;
  void energiesAndStresses(const Mat3* F, int count, double* psi, Mat3* P) const override;
  // psi as coefficients for the vector kernels (strain_polynomial_kernels.h, the element pass's
  // tet_kernels.h), where the model has them.
  virtual std::optional<StrainPolynomial> polynomialForm() const { return std::nullopt; }

 protected:
  // psi(E) and, when G is given, dpsi/dE (symmetric, a polynomial in E like psi).
  virtual double strainEnergy(const Mat3& E, Mat3* G) const = 0;

 private:
  // psi and P from F and its polar rotation R, or from the SVD when the polar iteration gave none.
  double energyAndStress(const Mat3& F, const Mat3& R, bool have_rotation, Mat3* P) const;
};

// Linear corotated elasticity: Psi = mu |F - R|^2 + lambda/2 tr^2(R^T F - I).
class Corotated : public StrainPolynomialMaterial {
 public:
  Corotated();
  std::string_view model() const override { return "corotated"; }
  const std::vector<MaterialParameter>& parameters() const override;
  std::unique_ptr<Material> clone() const override { return std::make_unique<Corotated>(*this); }
  Scalar2 a(double x) const override;
  Scalar2 b(double x) const override;

 private:
  double strainEnergy(const Mat3& E, Mat3* G) const override;
  std::optional<StrainPolynomial> polynomialForm() const override;  // mu tr(E^2) + lambda/2 tr^2 E
  double mu_ = 0, lambda_ = 0;
};

// Fixed corotated (Stomakhin et al. 2012): Psi = mu |F - R|^2 + lambda/2 (det F - 1)^2, the volume term
// of the determinant instead of corotated's trace. It is exactly the energy of xpbd's per-tet constraints.
class FixedCorotated : public SolidMaterial {
 public:
  FixedCorotated();
  std::string_view model() const override { return "fixed_corotated"; }
  const std::vector<MaterialParameter>& parameters() const override;
  std::unique_ptr<Material> clone() const override { return std::make_unique<FixedCorotated>(*this); }
  Scalar2 a(double x) const override;
  Scalar2 c(double x) const override;

 private:
  double mu_ = 0, lambda_ = 0;
};

// As-rigid-as-possible / Projective Dynamics corotated: Psi = mu |F - R|^2 (corotated with lambda = 0).
class Arap : public StrainPolynomialMaterial {
 public:
  Arap();
  std::string_view model() const override { return "arap"; }
  const std::vector<MaterialParameter>& parameters() const override;
  std::unique_ptr<Material> clone() const override { return std::make_unique<Arap>(*this); }
  Scalar2 a(double x) const override;
  std::optional<double> projectiveWeight() const override { return 2.0 * mu_; }

 private:
  double strainEnergy(const Mat3& E, Mat3* G) const override;
  std::optional<StrainPolynomial> polynomialForm() const override;  // mu tr(E^2)
  double mu_ = 0;
};

// Projective Dynamics with strain limiting (Bouaziz et al. 2014; paper S2 Fig. 11): two PD constraints,
//   Psi = w_a/2 |F - R|^2 + w_s/2 |F - U clamp(Sigma, s_min, s_max) V^T|^2,
// ARAP plus a strain limit that pulls only while a principal stretch is outside [s_min, s_max]. Its
// stress function (Eq. 10) is piecewise linear: slope w_a inside the interval, w_a + w_s outside.
class PdStrainLimit : public SolidMaterial {
 public:
  PdStrainLimit();
  std::string_view model() const override { return "pd_strain_limit"; }
  const std::vector<MaterialParameter>& parameters() const override;
  std::unique_ptr<Material> clone() const override { return std::make_unique<PdStrainLimit>(*this); }
  Scalar2 a(double x) const override;
  // Both constraints are rows of L, the limit's even while it is inactive (where S2 locates PD's extra damping).
  std::optional<double> projectiveWeight() const override { return arap_weight_ + limit_weight_; }

 private:
  double arap_weight_ = 0, limit_weight_ = 0, sigma_min_ = 1, sigma_max_ = 1;
};

// Neo-Hookean (paper Eq. 14), extended smoothly below J = inversion_j so it stays finite when inverted.
class NeoHookean : public SolidMaterial {
 public:
  NeoHookean();
  std::string_view model() const override { return "neo_hookean"; }
  const std::vector<MaterialParameter>& parameters() const override;
  std::unique_ptr<Material> clone() const override { return std::make_unique<NeoHookean>(*this); }
  Scalar2 a(double x) const override;
  Scalar2 c(double x) const override;
  double energyAndStress(const Mat3& F, Mat3* P) const override;
  void energiesAndStresses(const Mat3* F, int count, double* psi, Mat3* P) const override {
    loopEnergyAndStress(F, count, psi, P);
  }
  // mu, lambda and J0, for the element pass's vector kernel (core/objective/tet_kernels.h).
  struct Constants {
    double mu, lambda, inversion_j;
  };
  Constants constants() const { return {mu_, lambda_, inversion_j_}; }

 private:
  double mu_ = 0, lambda_ = 0, inversion_j_ = 0;
};

// St. Venant-Kirchhoff: Psi = mu |E|^2 + lambda/2 tr^2 E with E = (F^T F - I)/2.
class StVenantKirchhoff : public SolidMaterial {
 public:
  StVenantKirchhoff();
  std::string_view model() const override { return "stvk"; }
  const std::vector<MaterialParameter>& parameters() const override;
  std::unique_ptr<Material> clone() const override { return std::make_unique<StVenantKirchhoff>(*this); }
  Scalar2 a(double x) const override;
  Scalar2 b(double x) const override;
  double energyAndStress(const Mat3& F, Mat3* P) const override;
  void energiesAndStresses(const Mat3* F, int count, double* psi, Mat3* P) const override {
    loopEnergyAndStress(F, count, psi, P);
  }

 private:
  double mu_ = 0, lambda_ = 0;
};

// Compressible Mooney-Rivlin: Psi = mu10 (I1 - 3) + mu01 (I2 - 3) - (2 mu10 + 4 mu01) log J + lambda/2 log^2 J,
// with the same smooth extension of log J as Neo-Hookean (which it equals for mu10 = mu/2, mu01 = 0).
class MooneyRivlin : public SolidMaterial {
 public:
  MooneyRivlin();
  std::string_view model() const override { return "mooney_rivlin"; }
  const std::vector<MaterialParameter>& parameters() const override;
  std::unique_ptr<Material> clone() const override { return std::make_unique<MooneyRivlin>(*this); }
  Scalar2 a(double x) const override;
  Scalar2 b(double x) const override;
  Scalar2 c(double x) const override;

 private:
  double mu10_ = 0, mu01_ = 0, lambda_ = 0, inversion_j_ = 0;
};

// Polynomial (Xu et al. 2015): a(x) = sum_{k=2..6} mu_k (x - 1)^k, b = c = 0.
// The paper's squirrel material is mu4 = mu, all others zero.
class Polynomial : public StrainPolynomialMaterial {
 public:
  Polynomial();
  std::string_view model() const override { return "polynomial"; }
  const std::vector<MaterialParameter>& parameters() const override;
  std::unique_ptr<Material> clone() const override { return std::make_unique<Polynomial>(*this); }
  Scalar2 a(double x) const override;

 private:
  double strainEnergy(const Mat3& E, Mat3* G) const override;
  std::optional<StrainPolynomial> polynomialForm() const override;  // sum_k mu_k tr(E^k)
  double mu2_ = 0, mu3_ = 0, mu4_ = 0, mu5_ = 0, mu6_ = 0;
};

// Mass-spring stiffness k (N/m).
class Spring : public SpringMaterial {
 public:
  Spring();
  std::string_view model() const override { return "spring"; }
  const std::vector<MaterialParameter>& parameters() const override;
  std::unique_ptr<Material> clone() const override { return std::make_unique<Spring>(*this); }
};

// One Projective Dynamics constraint that keeps the principal stretches of F in [lo, hi] (thesis Sec. 6):
// E = w/2 |F - p|^2 with p = projectStretches(F, lo, hi) = U clamp(Sigma, lo, hi) V^T on the
// inversion-aware SVD, so an inverted F projects to a proper matrix. [1, 1] is ARAP (p = R); a wider
// interval is a strain limit. The energy is separable: sum_i of this term, w/2 (x - clamp(x, lo, hi))^2.
Scalar2 stretchLimitTerm(double x, double w, double lo, double hi);
Mat3 projectStretches(const Mat3& F, double lo, double hi);

// The smooth extension of log J used by Neo-Hookean and Mooney-Rivlin: log J above J0, and below it
// the quadratic that matches log's value and first two derivatives at J0 (finite for J <= 0).
Scalar2 extendedLog(double J, double J0);

// The volumetric term c(J) = -rest l(J) + lambda/2 l(J)^2 with l = extendedLog(J, J0); `rest` is chosen
// by each model so that the rest state is stress free.
Scalar2 logVolumeTerm(double J, double rest, double lambda, double J0);

template <class M>
MaterialParameter declareMu(double M::*member) {
  return Material::declare(member, "mu", 1e5, 0.0, 1e12, "Shear modulus mu (Pa).");
}
template <class M>
MaterialParameter declareLambda(double M::*member) {
  return Material::declare(member, "lambda", 4e5, 0.0, 1e12, "First Lame parameter lambda (Pa).");
}
template <class M>
MaterialParameter declareInversionJ(double M::*member) {
  return Material::declare(member, "inversion_j", 0.1, 1e-9, 0.9,
                           "Volume ratio J below which log J is continued by a quadratic (finite energy when inverted). "
                           "Near 1e-9, with solver.inversion_guard, the energy itself holds squeezed tets open.");
}

}  // namespace qnsim
