#include "core/mesh/mesh_check.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "core/common/error.h"

namespace qnsim {
namespace {

std::string where(const std::string& source, const SourceLocator& at, int index, const char* what) {
  if (at) return at(index);
  return source + ": " + what + " " + std::to_string(index);
}

double signedVolume(const MatX3& V, const Eigen::Vector4i& t) {
  const Vec3 a = V.row(t[0]), b = V.row(t[1]), c = V.row(t[2]), d = V.row(t[3]);
  return (b - a).cross(c - a).dot(d - a) / 6.0;
}

}  // namespace

void checkTetMesh(TetMesh& mesh, const std::string& source, const SourceLocator& vertex_at, const SourceLocator& tet_at) {
  const int nv = static_cast<int>(mesh.V.rows()), nt = static_cast<int>(mesh.T.rows());
  if (nv == 0) throw error(source, ": the mesh has no vertices");
  if (nt == 0) throw error(source, ": the mesh has no tetrahedra");
  if (mesh.region.size() == 0) mesh.region = Eigen::VectorXi::Zero(nt);
  if (mesh.region.size() != nt) throw error(source, ": ", mesh.region.size(), " region tags for ", nt, " tetrahedra");
  for (int i = 0; i < nv; ++i)
    if (!mesh.V.row(i).allFinite()) throw error(where(source, vertex_at, i, "vertex"), ": vertex coordinates are not finite");

  const double scale = (mesh.V.colwise().maxCoeff() - mesh.V.colwise().minCoeff()).norm();
  if (!(scale > 0)) throw error(source, ": all vertices coincide");
  const double min_volume = 1e-14 * scale * scale * scale;
  int positive = 0, negative = 0, first_positive = -1, first_negative = -1;
  for (int e = 0; e < nt; ++e) {
    const Eigen::Vector4i t = mesh.T.row(e);
    for (int k = 0; k < 4; ++k) {
      if (t[k] < 0 || t[k] >= nv)
        throw error(where(source, tet_at, e, "tetrahedron"), ": vertex index ", t[k], " is out of range (the mesh has ", nv, " vertices)");
      for (int j = 0; j < k; ++j)
        if (t[j] == t[k]) throw error(where(source, tet_at, e, "tetrahedron"), ": vertex ", t[k], " appears twice");
    }
    const double v = signedVolume(mesh.V, t);
    if (!(std::abs(v) > min_volume)) throw error(where(source, tet_at, e, "tetrahedron"), ": degenerate tetrahedron (volume ", v, ")");
    if (v > 0 && positive++ == 0) first_positive = e;
    if (v < 0 && negative++ == 0) first_negative = e;
  }
  if (positive > 0 && negative > 0) {
    const int odd = positive < negative ? first_positive : first_negative;
    throw error(where(source, tet_at, odd, "tetrahedron"), ": tetrahedron is inverted relative to the rest of the mesh (", positive,
                " positively and ", negative, " negatively oriented)");
  }
  if (negative > 0) mesh.T.col(2).swap(mesh.T.col(3));  // all negative: flip to positive orientation
}

void checkSurfaceMesh(const SurfaceMesh& surface, const std::string& source) {
  const Eigen::Index nv = surface.V.rows();
  if (nv == 0) throw error(source, ": the surface has no vertices");
  if (surface.F.rows() == 0) throw error(source, ": the surface has no triangles");
  for (Eigen::Index i = 0; i < nv; ++i)
    if (!surface.V.row(i).allFinite()) throw error(source, ": vertex ", i, ": coordinates are not finite");
  for (Eigen::Index f = 0; f < surface.F.rows(); ++f)
    for (int k = 0; k < 3; ++k) {
      const int index = surface.F(f, k);
      if (index < 0 || index >= nv) throw error(source, ": triangle ", f, ": vertex index ", index, " is out of range (", nv, " vertices)");
      if (index == surface.F(f, (k + 1) % 3)) throw error(source, ": triangle ", f, ": vertex ", index, " appears twice");
    }
  const double scale = (surface.V.colwise().maxCoeff() - surface.V.colwise().minCoeff()).norm();
  for (Eigen::Index f = 0; f < surface.F.rows(); ++f) {
    const Vec3 a = surface.V.row(surface.F(f, 0)), b = surface.V.row(surface.F(f, 1)), c = surface.V.row(surface.F(f, 2));
    if (!((b - a).cross(c - a).norm() > 1e-14 * scale * scale)) throw error(source, ": triangle ", f, " is degenerate (zero area)");
  }
}

void checkClosedSurface(const SurfaceMesh& surface, const std::string& source) {
  std::vector<std::pair<int, int>> edges;  // undirected, (smaller, larger)
  edges.reserve(static_cast<std::size_t>(3 * surface.F.rows()));
  for (Eigen::Index f = 0; f < surface.F.rows(); ++f)
    for (int k = 0; k < 3; ++k) edges.push_back(std::minmax(surface.F(f, k), surface.F(f, (k + 1) % 3)));
  std::sort(edges.begin(), edges.end());
  std::size_t open = 0, crowded = 0;
  std::pair<int, int> first_open{-1, -1}, first_crowded{-1, -1};
  std::size_t most = 0;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i + 1;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    if (j - i == 1 && open++ == 0) first_open = edges[i];
    if (j - i > 2 && crowded++ == 0) first_crowded = edges[i], most = j - i;
    i = j;
  }
  if (open > 0)
    throw error(source, ": the surface is not closed: ", open, " edge", open > 1 ? "s belong" : " belongs",
                " to only one triangle, e.g. the edge between vertices ", first_open.first, " and ", first_open.second);
  if (crowded > 0)
    throw error(source, ": the surface is not manifold: ", crowded, " edge", crowded > 1 ? "s are" : " is",
                " shared by more than two triangles, e.g. the edge between vertices ", first_crowded.first, " and ",
                first_crowded.second, " (", most, " triangles)");
}

}  // namespace qnsim
