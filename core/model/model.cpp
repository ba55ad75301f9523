#include "core/model/model.h"

#include <cmath>

#include "core/common/error.h"
#include "core/material/stiffness_fit.h"

namespace qnsim {

int addRegion(Model& model, std::string name, std::unique_ptr<Material> material, const Fiber& fiber) {
  model.regions.push_back({std::move(name), std::move(material), fiber, 0.0});
  return static_cast<int>(model.regions.size()) - 1;
}

namespace {
int appendVertices(Model& model, const MatX3& V) {
  const int first = model.vertexCount();
  model.rest.conservativeResize(3 * (first + V.rows()));
  model.rest.tail(3 * V.rows()) = flatten(V);
  model.mass.conservativeResize(first + V.rows());
  model.mass.tail(V.rows()).setZero();
  return first;
}
}  // namespace

void addTetBody(Model& model, const std::string& name, const TetMesh& mesh, double density, const std::vector<int>& tet_region) {
  const int first = appendVertices(model, mesh.V);
  for (int e = 0; e < mesh.T.rows(); ++e) {
    const Eigen::Vector4i t = mesh.T.row(e).transpose().array() + first;
    Mat3 Dm;
    for (int c = 0; c < 3; ++c) Dm.col(c) = vertex(model.rest, t[c + 1]) - vertex(model.rest, t[0]);
    const double volume = std::abs(Dm.determinant()) / 6.0;
    model.tets.vertices.push_back(t);
    model.tets.rest_inverse.push_back(Dm.inverse());
    model.tets.volume.push_back(volume);
    model.tets.region.push_back(tet_region[e]);
    for (int c = 0; c < 4; ++c) model.mass[t[c]] += density * volume / 4.0;
  }
  model.bodies.push_back({name, first, static_cast<int>(mesh.V.rows()), {}, false, {}, 0.0});
}

void addSpringBody(Model& model, const std::string& name, const SpringMesh& mesh, int stretch_region, int bend_region, double density,
                   double strand_radius) {
  const MatX3& V = mesh.surface.V;
  const TriIndices& F = mesh.surface.F;
  const int first = appendVertices(model, V);
  for (int f = 0; f < F.rows(); ++f) {
    const Vec3 a = V.row(F(f, 0)), b = V.row(F(f, 1)), c = V.row(F(f, 2));
    const double area = 0.5 * (b - a).cross(c - a).norm();
    for (int k = 0; k < 3; ++k) model.mass[first + F(f, k)] += density * area / 3.0;
  }
  const bool strands = F.rows() == 0;
  const auto addSprings = [&](const EdgeIndices& pairs, int region) {
    for (int s = 0; s < pairs.rows(); ++s) {
      const Eigen::Vector2i v = pairs.row(s).transpose().array() + first;
      const double length = (vertex(model.rest, v[0]) - vertex(model.rest, v[1])).norm();
      model.springs.vertices.push_back(v);
      model.springs.rest_length.push_back(length);
      model.springs.region.push_back(region);
      if (strands && region == stretch_region)
        for (int k = 0; k < 2; ++k) model.mass[v[k]] += density * length / 2.0;
    }
  };
  addSprings(mesh.stretch_springs, stretch_region);
  addSprings(mesh.bend_springs, bend_region);
  Body body{name, first, static_cast<int>(V.rows()), F.array() + first, !strands, {}, 0.0};
  if (strands) body.segments = mesh.stretch_springs.array() + first, body.strand_radius = strand_radius;
  model.bodies.push_back(std::move(body));
}

double regionStiffness(const Region& r, const Vec2& interval) {
  return r.is_solid() ? solidStiffness(static_cast<const SolidMaterial&>(*r.material), interval)
                      : static_cast<const SpringMaterial&>(*r.material).stiffness();
}

void updateStiffness(Model& model, const Vec2& interval) {
  for (Region& r : model.regions) r.stiffness = regionStiffness(r, interval);
}

SparseMatrix assembleLaplacian(const Model& model) {
  const int n = model.vertexCount();
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(16 * model.tets.size() + 4 * model.springs.size() + model.attachments.size());
  for (int e = 0; e < model.tets.size(); ++e) {
    const Region& region = model.regions[model.tets.region[e]];
    // Rows of G: g_a for the four vertices (g_0 = -sum of the others).
    Eigen::Matrix<double, 4, 3> g;
    g.bottomRows<3>() = model.tets.rest_inverse[e];
    g.row(0) = -g.bottomRows<3>().colwise().sum();
    const double V = model.tets.volume[e];
    Eigen::Matrix4d block = V * region.stiffness * g * g.transpose();
    if (region.fiber.kappa > 0) {
      const Eigen::Vector4d gd = g * region.fiber.direction;
      block += V * region.fiber.kappa * gd * gd.transpose();
    }
    const Eigen::Vector4i& t = model.tets.vertices[e];
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) entries.emplace_back(t[a], t[b], block(a, b));
  }
  for (int s = 0; s < model.springs.size(); ++s) {
    const double k = model.regions[model.springs.region[s]].stiffness;
    const Eigen::Vector2i& v = model.springs.vertices[s];
    entries.emplace_back(v[0], v[0], k);
    entries.emplace_back(v[1], v[1], k);
    entries.emplace_back(v[0], v[1], -k);
    entries.emplace_back(v[1], v[0], -k);
  }
  for (const Attachment& a : model.attachments) entries.emplace_back(a.vertex, a.vertex, a.stiffness);
  SparseMatrix L(n, n);
  L.setFromTriplets(entries.begin(), entries.end());
  return L;
}

}  // namespace qnsim
