#include "core/sim/damping.h"

#include <Eigen/Eigenvalues>

#include "core/sim/integrator.h"

namespace qnsim {
namespace {

// v_i += k (v_cm + omega x r_i - v_i) over one body, omega = I^-1 L about the centre of mass. The
// momentum of the added velocities is k (P - P) and k (I omega - L), zero; a body whose points lie on a
// line has a singular I, and the pseudo-inverse keeps that exact (L has no part along the line).
void dragDeformation(const Model& model, const Body& body, double k, const VecX& x, VecX& v) {
  const int first = body.first_vertex, end = first + body.vertex_count;
  double mass = 0;
  Vec3 centre = Vec3::Zero(), velocity = Vec3::Zero();
  for (int i = first; i < end; ++i) {
    mass += model.mass[i];
    centre += model.mass[i] * vertex(x, i);
    velocity += model.mass[i] * vertex(v, i);
  }
  if (mass <= 0) return;
  centre /= mass;
  velocity /= mass;
  Vec3 momentum = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
  for (int i = first; i < end; ++i) {
    const Vec3 r = vertex(x, i) - centre;
    momentum += model.mass[i] * r.cross(vertex(v, i));
    inertia += model.mass[i] * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(inertia);
  const Vec3 lambda = eigen.eigenvalues();
  Vec3 omega = Vec3::Zero();
  for (int a = 0; a < 3; ++a)
    if (lambda[a] > 1e-12 * lambda[2]) omega += eigen.eigenvectors().col(a).dot(momentum) / lambda[a] * eigen.eigenvectors().col(a);
  for (int i = first; i < end; ++i) {
    const Vec3 rigid = velocity + omega.cross(vertex(x, i) - centre);
    vertex(v, i) += k * (rigid - vertex(v, i));
  }
}

}  // namespace

void dragVelocities(const Model& model, const Settings& settings, const VecX& x, const VecX& v, VecX& dragged) {
  if (settings.damping_model == DampingModel::Ether) {
    dragged = (1.0 - settings.damping) * v;
    return;
  }
  dragged = v;
  if (settings.damping == 0) return;
  for (const Body& body : model.bodies) dragDeformation(model, body, settings.damping, x, dragged);
}

double materialDampingWeight(const Settings& settings) {
  const StepForm form = stepForm(settings.integrator);
  return settings.material_damping * form.energy_scale * form.argument_scale * form.velocity_scale / settings.time_step;
}

}  // namespace qnsim
