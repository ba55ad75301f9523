#include "core/model/model.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/material/stiffness_fit.h"
#include "core/mesh/spatial_order.h"
#include "qnsim/error.h"

namespace qnsim {

int addRegion(Model& model, std::string name, std::shared_ptr<const Material> material, const Fiber& fiber) {
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
  Body body;
  body.name = name;
  body.first_vertex = first;
  body.vertex_count = static_cast<int>(mesh.V.rows());
  body.first_tet = model.tets.size();
  body.tet_count = static_cast<int>(mesh.T.rows());
  MatX3 centroids(mesh.T.rows(), 3);
  for (int e = 0; e < mesh.T.rows(); ++e)
    centroids.row(e) = (mesh.V.row(mesh.T(e, 0)) + mesh.V.row(mesh.T(e, 1)) + mesh.V.row(mesh.T(e, 2)) + mesh.V.row(mesh.T(e, 3))) / 4;
  body.mesh_tet = spatialOrder(centroids);
  for (int e : body.mesh_tet) {
    const Eigen::Vector4i t = mesh.T.row(e).transpose().array() + first;
    Mat3 Dm;
    for (int c = 0; c < 3; ++c) Dm.col(c) = vertex(model.rest, t[c + 1]) - vertex(model.rest, t[0]);
    const double volume = std::abs(Dm.determinant()) / 6.0;
    model.tets.vertices.push_back(t);
    model.tets.rest_inverse.push_back(Dm.inverse());
    model.tets.volume.push_back(volume);
    model.tets.region.push_back(tet_region[e]);
    model.tets.removed.push_back(0);
    for (int c = 0; c < 4; ++c) model.mass[t[c]] += density * volume / 4.0;
  }
  model.bodies.push_back(std::move(body));
}

std::vector<int> modelTetsInMeshOrder(const Body& body) {
  std::vector<int> model_tet(body.mesh_tet.size());
  for (size_t i = 0; i < body.mesh_tet.size(); ++i) model_tet[body.mesh_tet[i]] = body.first_tet + static_cast<int>(i);
  return model_tet;
}

namespace {

int addSpring(SpringElements& springs, const VecX& rest, const Eigen::Vector2i& v, int region, const Eigen::Vector2i& hinge) {
  springs.vertices.push_back(v);
  springs.rest_length.push_back((vertex(rest, v[0]) - vertex(rest, v[1])).norm());
  springs.region.push_back(region);
  springs.hinge.push_back(hinge);
  springs.removed.push_back(0);
  return springs.size() - 1;
}

}  // namespace

void addSpringBody(Model& model, const std::string& name, const SpringMesh& mesh, int stretch_region, int bend_region, double density,
                   double strand_radius) {
  const MatX3& V = mesh.surface.V;
  const TriIndices& F = mesh.surface.F;
  const bool strands = F.rows() == 0;
  const int first = appendVertices(model, V);
  for (int f = 0; f < F.rows(); ++f) {
    const Vec3 a = V.row(F(f, 0)), b = V.row(F(f, 1)), c = V.row(F(f, 2));
    const double area = 0.5 * (b - a).cross(c - a).norm();
    for (int k = 0; k < 3; ++k) model.mass[first + F(f, k)] += density * area / 3.0;
  }
  Body body;
  body.name = name;
  body.first_vertex = first;
  body.vertex_count = static_cast<int>(V.rows());
  body.is_cloth = !strands;
  body.triangles = body.surface = F.array() + first;
  body.first_spring = model.springs.size();
  std::map<std::pair<int, int>, int> spring_of;  // stretch springs by their (sorted) mesh vertices
  const auto key = [](int a, int b) { return std::pair(std::min(a, b), std::max(a, b)); };
  for (Eigen::Index s = 0; s < mesh.stretch_springs.rows(); ++s) {
    const Eigen::Vector2i v = mesh.stretch_springs.row(s).transpose();
    const int spring = addSpring(model.springs, model.rest, v.array() + first, stretch_region, Eigen::Vector2i(-1, -1));
    spring_of[key(v[0], v[1])] = spring;
    if (strands)
      for (int k = 0; k < 2; ++k) model.mass[first + v[k]] += density * model.springs.rest_length[spring] / 2.0;
  }
  const auto springAlong = [&](int a, int b) {
    const auto found = spring_of.find(key(a, b));
    if (found == spring_of.end()) throw error("body '", name, "': no stretch spring joins vertices ", a, " and ", b);
    return found->second;
  };
  for (Eigen::Index s = 0; s < mesh.bend_springs.rows(); ++s) {
    const Eigen::Vector2i v = mesh.bend_springs.row(s).transpose();
    const int m = mesh.bend_middle[s];
    addSpring(model.springs, model.rest, v.array() + first, bend_region, Eigen::Vector2i(springAlong(v[0], m), springAlong(m, v[1])));
  }
  body.spring_count = model.springs.size() - body.first_spring;
  body.triangle_springs.resize(F.rows(), 3);
  for (Eigen::Index f = 0; f < F.rows(); ++f)
    for (int k = 0; k < 3; ++k) body.triangle_springs(f, k) = springAlong(F(f, k), F(f, (k + 1) % 3));
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

namespace {
SparseMatrix laplacian(const Model& model, bool with_attachments) {
  const int n = model.vertexCount();
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(16 * model.tets.size() + 4 * model.springs.size() + model.attachments.size() + n);
  for (int e = 0; e < model.tets.size(); ++e) {
    if (model.tets.removed[e]) continue;
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
    if (model.springs.removed[s]) continue;
    const double k = model.regions[model.springs.region[s]].stiffness;
    const Eigen::Vector2i& v = model.springs.vertices[s];
    entries.emplace_back(v[0], v[0], k);
    entries.emplace_back(v[1], v[1], k);
    entries.emplace_back(v[0], v[1], -k);
    entries.emplace_back(v[1], v[0], -k);
  }
  if (with_attachments)
    for (const Attachment& a : model.attachments) entries.emplace_back(a.vertex, a.vertex, a.stiffness);
  for (int v = 0; v < n; ++v) entries.emplace_back(v, v, 0.0);  // every diagonal entry, also of a vertex left without elements
  SparseMatrix L(n, n);
  L.setFromTriplets(entries.begin(), entries.end());
  return L;
}
}  // namespace

SparseMatrix assembleLaplacian(const Model& model) { return laplacian(model, true); }
SparseMatrix assembleElasticLaplacian(const Model& model) { return laplacian(model, false); }

}  // namespace qnsim
