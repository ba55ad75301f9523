#pragma once
// Materials. Every model declares its parameters once (name, default, range, description); the scene
// reader, `--set` and the UI panels all go through that declaration.
//
// Solid materials are isotropic hyperelastic energies in Valanis-Landel form (paper Eq. 9):
//   Psi(s1, s2, s3) = sum_i a(s_i) + b(s1 s2) + b(s2 s3) + b(s1 s3) + c(s1 s2 s3),
// evaluated on the inversion-aware SVD, so they are defined for inverted elements (s3 < 0).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/types.h"

namespace qnsim {

struct MaterialParameter {
  std::string name;
  double default_value;
  double min, max;
  std::string description;
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

  double get(std::string_view name) const;
  // Throws qnsim::Error naming the parameter if the name is unknown or the value is not finite or out
  // of its declared range.
  void set(std::string_view name, double value);
  double value(int index) const { return values_[index]; }

 protected:
  void resetToDefaults();
  std::vector<double> values_;
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

  // True for Projective Dynamics energies (Eq. 1): min over a constraint manifold of a quadratic.
  virtual bool isProjective() const { return false; }

 protected:
  void loopEnergyAndStress(const Mat3* F, int count, double* psi, Mat3* P) const {
    for (int i = 0; i < count; ++i) psi[i] = energyAndStress(F[i], P ? &P[i] : nullptr);
  }
};

// A mass-spring stiffness: E = k/2 (|x1 - x2| - l0)^2, a Projective Dynamics energy.
class SpringMaterial : public Material {
 public:
  double stiffness() const { return values_[0]; }
};

// Creates a material by model name ("neo_hookean", "spring", ...) with default parameters;
// throws qnsim::Error listing the known models when the name is unknown.
std::unique_ptr<Material> makeMaterial(std::string_view model);
const std::vector<std::string>& materialModels();

}  // namespace qnsim
