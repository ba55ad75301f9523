#include "core/objective/wind.h"

#include <cmath>

#include "core/common/hash.h"

namespace qnsim {
namespace {

// Value noise: hashed lattice values every unit, joined by smoothstep (C1, stays within [-1, 1]).
double smoothNoise(int seed, double s) {
  const double k = std::floor(s), f = s - k, blend = f * f * (3.0 - 2.0 * f);
  const double a = hashedUnit(seed, static_cast<int64_t>(k)), b = hashedUnit(seed, static_cast<int64_t>(k) + 1);
  return a + blend * (b - a);
}

}  // namespace

Vec3 windVelocity(const WindSettings& wind, double t) {
  if (wind.gust == 0.0) return wind.velocity;
  return wind.velocity * (1.0 + wind.gust * smoothNoise(wind.seed, t / wind.gust_period));
}

void makeWindTerms(const Model& model, const VecX& x_start, const WindSettings& wind, double h, double t,
                   std::vector<WindTerm>& terms) {
  terms.clear();
  if (wind.drag <= 0.0) return;
  std::vector<Mat3> K(model.vertexCount(), Mat3::Zero());
  std::vector<bool> on_surface(model.vertexCount(), false);
  for (const Body& body : model.bodies)
    for (Eigen::Index f = 0; f < body.surface.rows(); ++f) {
      const Eigen::Vector3i tri = body.surface.row(f);
      const Vec3 a = vertex(x_start, tri[0]), b = vertex(x_start, tri[1]), c = vertex(x_start, tri[2]);
      const Vec3 area_normal = 0.5 * (b - a).cross(c - a);  // |.| = A
      const double area = area_normal.norm();
      if (!(area > 0.0)) continue;
      const Vec3 n = area_normal / area;
      const Mat3 block = wind.drag * area / (3.0 * h) * n * n.transpose();
      for (int i = 0; i < 3; ++i) {
        K[tri[i]] += block;
        on_surface[tri[i]] = true;
      }
    }
  const Vec3 air_step = h * windVelocity(wind, t);
  for (int v = 0; v < model.vertexCount(); ++v)
    if (on_surface[v]) terms.push_back({v, K[v], vertex(x_start, v) + air_step});
}

}  // namespace qnsim
