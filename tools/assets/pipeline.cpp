#include "tools/assets/pipeline.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "core/mesh/mesh_check.h"
#include "core/mesh/mesh_io.h"
#include "tools/assets/closest_point.h"
#include "tools/assets/remesh.h"

namespace qnsim::assets {

SurfaceMesh meshImplicit(const Sdf& f, const Grid& grid, const SizeField& edge_length, int iterations) {
  const SurfaceMesh raw = marchingTets(f, grid);
  const double h = 0.01 * grid.spacing, tol = 1e-6 * grid.spacing;
  RemeshOptions options;
  options.edge_length = edge_length;
  options.project = [&](const Vec3& p) { return projectToSurface(f, p, h, tol); };
  options.iterations = iterations;
  return remesh(raw, options);
}

SurfaceMesh remeshSurface(const SurfaceMesh& reference, double edge_length, int iterations) {
  const ClosestPoint closest(reference);
  RemeshOptions options;
  options.edge_length = [edge_length](const Vec3&) { return edge_length; };
  options.project = [&](const Vec3& p) { return closest(p); };
  options.iterations = iterations;
  return remesh(reference, options);
}

SurfaceMesh boxSurface(const Vec3& lo, const Vec3& hi, const Eigen::Vector3i& n) {
  std::map<std::array<int, 3>, int> index;  // lattice point -> vertex
  std::vector<Vec3> points;
  std::vector<std::array<int, 3>> faces;
  const auto vertex = [&](std::array<int, 3> c) {
    const auto [it, inserted] = index.try_emplace(c, static_cast<int>(points.size()));
    if (inserted) points.push_back(lo + (hi - lo).cwiseProduct(Vec3(c[0], c[1], c[2]).cwiseQuotient(n.cast<double>())));
    return it->second;
  };
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side < 2; ++side) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      for (int i = 0; i < n[u]; ++i)
        for (int j = 0; j < n[v]; ++j) {
          std::array<int, 4> q;
          for (int c = 0; c < 4; ++c) {
            std::array<int, 3> p{};
            p[axis] = side * n[axis];
            p[u] = i + (c == 1 || c == 2);
            p[v] = j + (c >= 2);
            q[c] = vertex(p);
          }
          // (u, v, axis) is right-handed, so q0 q1 q2 turns towards +axis; flip on the low side.
          // Alternate the diagonal so the faces have no preferred direction.
          std::array<int, 3> t0 = {q[0], q[1], q[2]}, t1 = {q[0], q[2], q[3]};
          if ((i + j) % 2) {
            t0 = {q[0], q[1], q[3]};
            t1 = {q[1], q[2], q[3]};
          }
          if (side == 0) {
            std::swap(t0[1], t0[2]);
            std::swap(t1[1], t1[2]);
          }
          faces.push_back(t0);
          faces.push_back(t1);
        }
    }
  SurfaceMesh s;
  s.V.resize(static_cast<Eigen::Index>(points.size()), 3);
  for (std::size_t i = 0; i < points.size(); ++i) s.V.row(static_cast<Eigen::Index>(i)) = points[i];
  s.F.resize(static_cast<Eigen::Index>(faces.size()), 3);
  for (std::size_t i = 0; i < faces.size(); ++i) s.F.row(static_cast<Eigen::Index>(i)) << faces[i][0], faces[i][1], faces[i][2];
  return s;
}

TetMesh tetrahedralizeSurface(const SurfaceMesh& surface, const TetgenOptions& options, const std::string& name) {
  const SurfaceQuality q = surfaceQuality(surface);
  std::fprintf(stderr, "%s: surface %d vertices, %d triangles, mean edge %.4f m, smallest angle %.1f deg\n", name.c_str(), q.vertices,
               q.faces, q.mean_edge, q.min_angle_deg);
  if (const char* dir = std::getenv("QNSIM_ASSETS_SURFACES")) writeOff(std::filesystem::path(dir) / (name + ".off"), surface);
  TetMesh mesh = tetrahedralize(surface, options);
  checkTetMesh(mesh, name);
  return mesh;
}

int tagRegion(TetMesh& mesh, const Sdf& inside, int region) {
  int count = 0;
  for (Eigen::Index e = 0; e < mesh.T.rows(); ++e) {
    Vec3 centroid = Vec3::Zero();
    for (int k = 0; k < 4; ++k) centroid += 0.25 * mesh.V.row(mesh.T(e, k)).transpose();
    if (inside(centroid) < 0) {
      mesh.region[e] = region;
      ++count;
    }
  }
  return count;
}

void placeOnGround(TetMesh& mesh) {
  const Vec3 lo = mesh.V.colwise().minCoeff(), hi = mesh.V.colwise().maxCoeff();
  const Vec3 shift(0.5 * (lo.x() + hi.x()), lo.y(), 0.5 * (lo.z() + hi.z()));
  mesh.V.rowwise() -= shift.transpose();
}

}  // namespace qnsim::assets
