#pragma once
// Materials. Every model declares its constants once, as Parameters (parameter.h) bound to the model's
// own members; the scene reader, `--set`, `qnsim params`, the Materials panel and Simulation::apply all
// go through that declaration, with the same parsing, checks and widgets as the simulation settings.
//
// Solid materials are isotropic hyperelastic energies in Valanis-Landel form (paper Eq. 9):
//   Psi(s1, s2, s3) = sum_i a(s_i) + b(s1 s2) + b(s2 s3) + b(s1 s3) + c(s1 s2 s3),
// evaluated on the inversion-aware SVD, so they are defined for inverted elements (s3 < 0).
// Units: energy densities and stresses in Pa (J/m^3), spring constants in N/m.
// Threads: a simulation shares its materials as immutable values and evaluates them from its worker
// threads, so a model's const functions must be safe to call concurrently; edit a clone().
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qnsim/parameter.h"
#include "qnsim/types.h"

namespace qnsim {

class Material;

// Anisotropic fibre reinforcement of a solid region (paper Sec. 4.4): Psi_fibre = kappa/2 (|F d| - 1)^2,
// d the unit rest fibre direction. It is exactly a Projective Dynamics energy, so A stays constant.
struct Fiber {
  Vec3 direction = Vec3::UnitX();  // unit length
  double kappa = 0.0;              // Pa; 0 = isotropic
  bool operator==(const Fiber&) const = default;
};

// A material constant: its declaration (key = the name in scene files, "mu") and the member holding it.
struct MaterialParameter : Parameter {
  double Material::*member;
};

// A scalar function with its first two derivatives, for the a, b, c of Eq. 9.
struct Scalar2 {
  double v = 0.0, d1 = 0.0, d2 = 0.0;
};

class Material {
 public:
  virtual ~Material() = default;
  virtual std::string_view model() const = 0;
  virtual const std::vector<MaterialParameter>& parameters() const = 0;
  virtual std::unique_ptr<Material> clone() const = 0;

  // Throws qnsim::Error naming the model and listing its parameters when the name is unknown.
  const MaterialParameter& parameter(std::string_view name) const;
  double get(std::string_view name) const { return this->*parameter(name).member; }
  // Throws qnsim::Error naming the model and the parameter if the value is not finite or out of range.
  void set(std::string_view name, double value);
  // What replacing `before` by this material costs a running simulation: the largest declared effect of
  // the constants that differ, NewSystemMatrix for another model or (splines) other control points.
  Effect editEffect(const Material& before) const;

  // Tearing (core/model/removal.h): an element of this material is removed after a frame in which its
  // largest principal stretch exceeds 1 + tear_strain (1 + tear_scatter r), r in [-1, 1] hashed from the
  // element (flaws of a fabric); tear_strain 0 = it never tears. Every model declares both (withTearing).
  double tearStrain() const { return tear_strain_; }
  double tearScatter() const { return tear_scatter_; }

  // Declares a constant of model M held in its member `member`; a material edit refits k and refactors A.
  template <class M>
  static MaterialParameter declare(double M::*member, std::string name, double default_value, double min, double max,
                                   std::string description) {
    return {{std::move(name), "Material", std::move(description), Parameter::Type::Real, default_value, min, max, {},
             Effect::NewSystemMatrix},
            static_cast<double Material::*>(member)};
  }

 protected:
  void resetToDefaults();
  // Whether what parameters() does not declare (a spline's control points) equals that of `other`, a
  // material of the same model.
  virtual bool sameUndeclared(const Material& /*other*/) const { return true; }
  // A model's own constants followed by the tearing ones, which every model has. They are not in A, so
  // their edits apply live.
  static std::vector<MaterialParameter> withTearing(std::vector<MaterialParameter> constants);

 private:
  double tear_strain_ = 0.0, tear_scatter_ = 0.0;
};

// A volumetric material for tetrahedra.
class SolidMaterial : public Material {
 public:
  // The Valanis-Landel terms of Eq. 9 (b and c default to zero).
  virtual Scalar2 a(double x) const = 0;
  virtual Scalar2 b(double /*x*/) const { return {}; }
  virtual Scalar2 c(double /*x*/) const { return {}; }

  // Energy density Psi(F); writes the first Piola-Kirchhoff stress P = dPsi/dF when P is given.
  // The default goes through the SVD; models with a closed form in F override it (it must agree).
  virtual double energyAndStress(const Mat3& F, Mat3* P) const;

  // The same for F[0..count) into psi[0..count) and P[0..count) (P may be null). The default
  // decomposes the F side by side (svd3.h), which is about twice as fast as one at a time; models
  // with a closed form override it with loopEnergyAndStress.
  virtual void energiesAndStresses(const Mat3* F, int count, double* psi, Mat3* P) const;

  // For a Projective Dynamics energy (Eq. 1: a sum of w_j/2 min_{p in C_j} |F - p|^2), the sum of its
  // constraint weights w_j: its exact weight k in L, with which x - A^-1 grad g is one local/global
  // step (claim C1). Empty for other materials, whose k is fitted (Eq. 11).
  virtual std::optional<double> projectiveWeight() const { return std::nullopt; }
  bool isProjective() const { return projectiveWeight().has_value(); }

 protected:
  void loopEnergyAndStress(const Mat3* F, int count, double* psi, Mat3* P) const {
    for (int i = 0; i < count; ++i) psi[i] = energyAndStress(F[i], P ? &P[i] : nullptr);
  }
};

// A mass-spring stiffness: E = k/2 (|x1 - x2| - l0)^2, a Projective Dynamics energy.
class SpringMaterial : public Material {
 public:
  double stiffness() const { return k_; }

 protected:
  double k_ = 0;
};

// The built-in models, each registered once (registry.cpp): its name in scene files and a factory.
struct MaterialModel {
  std::string name;
  bool solid;  // a SolidMaterial (tets) or a SpringMaterial (springs)
  std::unique_ptr<Material> (*make)();
};
const std::vector<MaterialModel>& materialModels();

// The Lame parameters of an isotropic material from its Young's modulus E (Pa) and Poisson's ratio nu:
//   mu = E / (2 (1 + nu)),   lambda = E nu / ((1 + nu) (1 - 2 nu)),
// the mu and lambda of the corotated, fixed corotated, Neo-Hookean and St. Venant-Kirchhoff models (their
// small-strain limit is linear elasticity with these constants), so a real material gets its real
// stiffness. Throws qnsim::Error unless E > 0 and -1 < nu < 0.5.
struct LameParameters {
  double mu, lambda;  // Pa
};
LameParameters lameFromYoung(double young, double poisson);

// Creates a material by model name ("neo_hookean", "spring", ...) with default parameters;
// throws qnsim::Error listing the known models when the name is unknown.
std::unique_ptr<Material> makeMaterial(std::string_view model);

}  // namespace qnsim
