#include "core/mesh/quality.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/mesh/surface.h"

namespace qnsim {

TetQuality tetQuality(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 p[4] = {a, b, c, d};
  TetQuality q;
  q.volume = (b - a).dot((c - a).cross(d - a)) / 6.0;
  // Outward normals of the faces opposite each corner (kTetFaces order, for a positive tet).
  Vec3 n[4];
  for (int k = 0; k < 4; ++k) {
    const Vec3 u = p[kTetFaces[k][1]] - p[kTetFaces[k][0]], v = p[kTetFaces[k][2]] - p[kTetFaces[k][0]];
    n[k] = u.cross(v);
    const double length = n[k].norm();
    if (length > 0) n[k] /= length;
    if (q.volume < 0) n[k] = -n[k];
  }
  q.min_dihedral = 180;
  for (int k = 0; k < 4; ++k)
    for (int l = k + 1; l < 4; ++l) {  // the edge shared by the faces opposite k and l
      const double angle = std::acos(std::clamp(-n[k].dot(n[l]), -1.0, 1.0)) * 180.0 / M_PI;
      q.min_dihedral = std::min(q.min_dihedral, angle);
      q.max_dihedral = std::max(q.max_dihedral, angle);
    }
  double shortest = INFINITY;
  for (int k = 0; k < 4; ++k)
    for (int l = k + 1; l < 4; ++l) shortest = std::min(shortest, (p[k] - p[l]).norm());
  const Vec3 e1 = b - a, e2 = c - a, e3 = d - a;
  const double det = 2.0 * e1.dot(e2.cross(e3));
  const Vec3 centre = (e1.squaredNorm() * e2.cross(e3) + e2.squaredNorm() * e3.cross(e1) + e3.squaredNorm() * e1.cross(e2)) / det;
  q.radius_edge = det != 0 && shortest > 0 ? centre.norm() / shortest : INFINITY;
  return q;
}

MeshQualityReport meshQuality(const TetMesh& mesh) {
  MeshQualityReport r;
  r.vertices = static_cast<int>(mesh.V.rows());
  r.tets = static_cast<int>(mesh.T.rows());
  std::vector<TetQuality> q(r.tets);
  r.smallest_volume = INFINITY;
  double sum = 0;
  for (int e = 0; e < r.tets; ++e) {
    q[e] = tetQuality(mesh.V.row(mesh.T(e, 0)), mesh.V.row(mesh.T(e, 1)), mesh.V.row(mesh.T(e, 2)), mesh.V.row(mesh.T(e, 3)));
    r.volume += std::abs(q[e].volume);
    r.smallest_volume = std::min(r.smallest_volume, std::abs(q[e].volume));
    r.min_dihedral = std::min(r.min_dihedral, q[e].min_dihedral);
    r.max_dihedral = std::max(r.max_dihedral, q[e].max_dihedral);
    r.max_radius_edge = std::max(r.max_radius_edge, q[e].radius_edge);
    sum += q[e].min_dihedral;
    int bin = 0;
    while (bin + 1 < static_cast<int>(r.histogram.size()) && q[e].min_dihedral >= MeshQualityReport::kBins[bin + 1]) ++bin;
    ++r.histogram[bin];
  }
  r.mean_min_dihedral = r.tets > 0 ? sum / r.tets : 0;
  std::vector<int> order(r.tets);
  std::iota(order.begin(), order.end(), 0);
  const int shown = std::min(5, r.tets);
  std::partial_sort(order.begin(), order.begin() + shown, order.end(), [&](int x, int y) { return q[x].min_dihedral < q[y].min_dihedral; });
  for (int k = 0; k < shown; ++k) {
    const int e = order[k];
    r.worst.push_back(e);
    r.worst_quality.push_back(q[e]);
    Vec3 centroid = Vec3::Zero();
    for (int c = 0; c < 4; ++c) centroid += mesh.V.row(mesh.T(e, c)).transpose() / 4.0;
    r.worst_centroid.push_back(centroid);
  }
  // Shells: the boundary's connected pieces (union-find over its triangles' vertices).
  const TriIndices F = boundaryFaces(mesh.T);
  r.boundary_triangles = static_cast<int>(F.rows());
  std::vector<int> parent(r.vertices);
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  std::vector<char> on_boundary(r.vertices, 0);
  for (Eigen::Index f = 0; f < F.rows(); ++f)
    for (int k = 0; k < 3; ++k) {
      on_boundary[F(f, k)] = 1;
      parent[find(F(f, k))] = find(F(f, (k + 1) % 3));
    }
  for (int v = 0; v < r.vertices; ++v) r.shells += on_boundary[v] && find(v) == v;
  return r;
}

std::string describeQuality(const MeshQualityReport& r) {
  std::string out;
  char line[256];
  const auto add = [&](int n) { out.append(line, std::min<std::size_t>(n, sizeof line - 1)); };
  add(std::snprintf(line, sizeof line, "mesh           %d vertices, %d tets, %d boundary triangles in %d shell%s, volume %.6g m^3\n", r.vertices,
                    r.tets, r.boundary_triangles, r.shells, r.shells == 1 ? "" : "s", r.volume));
  add(std::snprintf(line, sizeof line, "dihedral       smallest %.2f deg, largest %.2f deg, mean smallest per tet %.2f deg\n", r.min_dihedral,
                    r.max_dihedral, r.mean_min_dihedral));
  add(std::snprintf(line, sizeof line, "radius-edge    largest %.3f (a regular tet has 0.612)\n", r.max_radius_edge));
  out += "smallest angle tets per bin of their smallest dihedral angle (deg):\n";
  const int most = std::max(1, *std::max_element(r.histogram.begin(), r.histogram.end()));
  for (std::size_t b = 0; b < r.histogram.size(); ++b) {
    const int bar = static_cast<int>(std::lround(40.0 * r.histogram[b] / most));
    add(std::snprintf(line, sizeof line, "  %4.0f - %-4.0f %8d  %s\n", MeshQualityReport::kBins[b], MeshQualityReport::kBins[b + 1], r.histogram[b],
                      std::string(static_cast<std::size_t>(bar), '#').c_str()));
  }
  out += "worst tets (smallest dihedral angle first):\n";
  for (std::size_t k = 0; k < r.worst.size(); ++k) {
    const TetQuality& q = r.worst_quality[k];
    const Vec3& c = r.worst_centroid[k];
    add(std::snprintf(line, sizeof line, "  tet %-8d dihedral %6.2f - %6.2f deg, radius-edge %7.3f, volume %.3g m^3, at (%.4g, %.4g, %.4g)\n", r.worst[k],
                      q.min_dihedral, q.max_dihedral, q.radius_edge, std::abs(q.volume), c.x(), c.y(), c.z()));
  }
  return out;
}

}  // namespace qnsim
