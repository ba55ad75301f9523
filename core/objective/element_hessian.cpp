#include "core/objective/element_hessian.h"

#include "core/material/fiber.h"
#include "core/material/valanis_landel.h"
#include "core/math/proximity.h"

namespace qnsim {
namespace {

// Rows a = 0..3: the gradient of F with respect to x_a is e_i g_a^T (g_1..g_3 the rows of Dm^-1, g_0
// minus their sum).
Eigen::Matrix<double, 4, 3> shapeGradients(const TetElements& tets, int e) {
  Eigen::Matrix<double, 4, 3> g;
  g.bottomRows<3>() = tets.rest_inverse[e];
  g.row(0) = -g.bottomRows<3>().colwise().sum();
  return g;
}

// Calls add(lambda, Q) for each eigen-pair of tet e's dP/dF at F (isotropic part, then fibre).
template <class Add>
void forEachMode(const Model& model, int e, const Mat3& F, const Svd3& svd, Add&& add) {
  const int region = model.tets.region[e];
  const StressDerivative iso = stressDerivative(model.solid(region), svd);
  for (int k = 0; k < 9; ++k) add(iso.lambda[k], iso.Q[k]);
  const Fiber& fiber = model.regions[region].fiber;
  if (fiber.kappa > 0) {
    const FiberStressDerivative fd = fiberStressDerivative(fiber, F);
    for (int k = 0; k < 3; ++k) add(fd.lambda[k], fd.Q[k]);
  }
}

}  // namespace

Mat12 tetHessian(const Model& model, int e, const VecX& z, EigenvalueFilter filter) {
  const Mat3 F = model.tets.deformationGradient(z, e);
  const Eigen::Matrix<double, 4, 3> g = shapeGradients(model.tets, e);
  const double V = model.tets.volume[e];
  Mat12 H = Mat12::Zero();
  // Adds V lambda w w^T with w = (Q g_0, Q g_1, Q g_2, Q g_3) for one eigen-pair of dP/dF.
  forEachMode(model, e, F, svd3(F), [&](double lambda, const Mat3& Q) {
    const double weight = V * filterEigenvalue(lambda, filter);
    if (weight == 0.0) return;
    Vec12 w;
    for (int a = 0; a < 4; ++a) w.segment<3>(3 * a) = Q * g.row(a).transpose();
    H.noalias() += weight * w * w.transpose();
  });
  return H;
}

namespace {

// Tet e's terms for its vertices first..last-1 into out[0..]: one SVD and one eigensystem for all of them.
void vertexTerms(const Model& model, int e, const Mat3& F, EigenvalueFilter filter, int first, int last, TetVertexTerms* out) {
  const Eigen::Matrix<double, 4, 3> g = shapeGradients(model.tets, e);
  const double V = model.tets.volume[e];
  const int region = model.tets.region[e];
  const Svd3 svd = svd3(F);
  // P = U diag(dPsi/ds) V^T, the stress of the Valanis-Landel form on this SVD (the models' closed forms
  // agree with it, Eq. 9), then the fibre's.
  Vec3 dpsi;
  double psi_value = psiAndGradient(model.solid(region), svd.sigma, dpsi);
  Mat3 P = svd.U * dpsi.asDiagonal() * svd.V.transpose();
  psi_value += addFiberEnergyAndStress(model.regions[region].fiber, F, &P);
  for (int a = first; a < last; ++a) out[a - first] = {V * psi_value, V * P * g.row(a).transpose(), Mat3::Zero()};
  forEachMode(model, e, F, svd, [&](double lambda, const Mat3& Q) {
    const double weight = V * filterEigenvalue(lambda, filter);
    if (weight == 0.0) return;
    for (int a = first; a < last; ++a) {
      const Vec3 w = Q * g.row(a).transpose();
      out[a - first].hessian.noalias() += weight * w * w.transpose();
    }
  });
}

}  // namespace

TetVertexTerms tetVertexTerms(const Model& model, int e, int a, const Mat3& F, EigenvalueFilter filter) {
  TetVertexTerms out;
  vertexTerms(model, e, F, filter, a, a + 1, &out);
  return out;
}

std::array<TetVertexTerms, 4> tetVertexTermsOfAll(const Model& model, int e, const Mat3& F, EigenvalueFilter filter) {
  std::array<TetVertexTerms, 4> out;
  vertexTerms(model, e, F, filter, 0, 4, out.data());
  return out;
}

Mat3 springBlock(const Vec3& d, double rest_length, double k, EigenvalueFilter filter) {
  const double length = d.norm();
  if (length == 0.0) return k * Mat3::Identity();
  const Vec3 u = d / length;
  const double across = filterEigenvalue(k * (1.0 - rest_length / length), filter);
  return k * u * u.transpose() + across * (Mat3::Identity() - u * u.transpose());
}

}  // namespace qnsim
