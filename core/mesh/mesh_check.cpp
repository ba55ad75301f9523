#include "core/mesh/mesh_check.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "qnsim/error.h"

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

// Keeps the tets for which keep(e) holds, with their region tags.
template <class Keep>
void keepTets(TetMesh& mesh, Keep keep) {
  int kept = 0;
  for (int e = 0; e < mesh.T.rows(); ++e)
    if (keep(e)) {
      mesh.T.row(kept) = mesh.T.row(e);
      mesh.region[kept++] = mesh.region[e];
    }
  mesh.T.conservativeResize(kept, 4);
  mesh.region.conservativeResize(kept);
}

// Vertices at exactly the position of another one (a cut in the mesh, or a tool that writes a vertex
// per element); they are kept apart, since merging them would change the physics.
int sharedPositions(const MatX3& V) {
  std::vector<std::array<double, 3>> points(V.rows());
  for (Eigen::Index i = 0; i < V.rows(); ++i) points[i] = {V(i, 0), V(i, 1), V(i, 2)};
  std::sort(points.begin(), points.end());
  return static_cast<int>(points.end() - std::unique(points.begin(), points.end()));
}

// In a mesh of like-oriented tets, two tets that share a face lie on its two sides, and they see it
// in opposite vertex orders. Two tets that see a face in the same order lie on the same side: they
// overlap (a tet listed twice, for one). Such a mesh can even have no boundary at all.
void checkNoOverlaps(const TetIndices& T, const std::vector<bool>& skip, const std::string& source, const SourceLocator& tet_at) {
  // A face as one tet sees it, packed for a fast sort: (a, b) and (c, side, tet), where a < b < c are
  // its vertices and `side` is set when the tet lists them in an odd permutation of that order.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> faces;
  faces.reserve(static_cast<std::size_t>(4 * T.rows()));
  for (int e = 0; e < T.rows(); ++e) {
    if (skip[e]) continue;
    for (const auto& local : kTetFaces) {
      std::array<std::uint64_t, 3> v = {std::uint64_t(T(e, local[0])), std::uint64_t(T(e, local[1])), std::uint64_t(T(e, local[2]))};
      const std::uint64_t odd = ((v[0] > v[1]) + (v[0] > v[2]) + (v[1] > v[2])) % 2;
      std::sort(v.begin(), v.end());
      faces.emplace_back(v[0] << 32 | v[1], v[2] << 32 | odd << 31 | std::uint64_t(e));
    }
  }
  std::sort(faces.begin(), faces.end());
  std::size_t first = 0;  // the pair (first - 1, first) whose later tet comes first in the file; 0: none
  const auto tet = [&](std::size_t i) { return static_cast<int>(faces[i].second & 0x7fffffff); };
  for (std::size_t i = 1; i < faces.size(); ++i)
    if (faces[i].first == faces[i - 1].first && faces[i].second >> 31 == faces[i - 1].second >> 31 && (first == 0 || tet(i) < tet(first)))
      first = i;
  if (first == 0) return;
  throw error(where(source, tet_at, tet(first), "tetrahedron"), ": tetrahedron overlaps the one at ",
              where(source, tet_at, tet(first - 1), "tetrahedron"), " (both lie on the same side of their common face, vertices ",
              faces[first].first >> 32, ", ", faces[first].first & 0xffffffff, ", ", faces[first].second >> 32, ")");
}

}  // namespace

int dropUnusedVertices(TetMesh& mesh) {
  const int nv = static_cast<int>(mesh.V.rows());
  std::vector<int> new_index(nv, -1);
  for (int index : mesh.T.reshaped()) new_index[index] = 0;
  int kept = 0;
  for (int i = 0; i < nv; ++i)
    if (new_index[i] == 0) {
      new_index[i] = kept;
      mesh.V.row(kept++) = mesh.V.row(i);
    }
  mesh.V.conservativeResize(kept, 3);
  for (int& index : mesh.T.reshaped()) index = new_index[index];
  return nv - kept;
}

std::string MeshRepairs::describe(const std::string& source) const {
  std::string text;
  auto add = [&text](int count, const std::string& what) {
    if (count > 0) text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + what;
  };
  add(slivers, slivers == 1 ? "sliver tetrahedron dropped" : "sliver tetrahedra dropped");
  add(unused_vertices, unused_vertices == 1 ? "unused vertex dropped" : "unused vertices dropped");
  add(shared_positions, shared_positions == 1 ? "vertex shares its position with another (kept apart)"
                                              : "vertices share their positions with others (kept apart)");
  return source + ": repaired: " + text + (unused_vertices > 0 ? "; vertex indices in handles refer to the repaired mesh" : "");
}

MeshRepairs checkTetMesh(TetMesh& mesh, const std::string& source, const SourceLocator& vertex_at, const SourceLocator& tet_at) {
  const int nv = static_cast<int>(mesh.V.rows()), nt = static_cast<int>(mesh.T.rows());
  if (nv == 0) throw error(source, ": the mesh has no vertices");
  if (nt == 0) throw error(source, ": the mesh has no tetrahedra");
  if (mesh.region.size() == 0) mesh.region = Eigen::VectorXi::Zero(nt);
  if (mesh.region.size() != nt) throw error(source, ": ", mesh.region.size(), " region tags for ", nt, " tetrahedra");
  for (int i = 0; i < nv; ++i)
    if (!mesh.V.row(i).allFinite()) throw error(where(source, vertex_at, i, "vertex"), ": vertex coordinates are not finite");

  const double scale = (mesh.V.colwise().maxCoeff() - mesh.V.colwise().minCoeff()).norm();
  if (!(scale > 0)) throw error(source, ": all vertices coincide");
  std::vector<double> volume(nt);
  for (int e = 0; e < nt; ++e) {
    const Eigen::Vector4i t = mesh.T.row(e);
    for (int k = 0; k < 4; ++k) {
      if (t[k] < 0 || t[k] >= nv)
        throw error(where(source, tet_at, e, "tetrahedron"), ": vertex index ", t[k], " is out of range (the mesh has ", nv, " vertices)");
      for (int j = 0; j < k; ++j)
        if (t[j] == t[k]) throw error(where(source, tet_at, e, "tetrahedron"), ": vertex ", t[k], " appears twice");
    }
    volume[e] = signedVolume(mesh.V, t);
  }
  // Slivers hold no mass or stiffness worth keeping but would make A ill-conditioned: a tet below 1e-8
  // of the mean tet volume (or 1e-14 of the bounding box's diagonal cubed) is dropped, as long as
  // slivers are at most 1% of the tets; more than that is a broken mesh.
  double mean = 0;
  for (double v : volume) mean += std::abs(v) / nt;
  const double sliver = std::max(1e-8 * mean, 1e-14 * scale * scale * scale);
  int slivers = 0, first_sliver = -1, positive = 0, negative = 0, first_positive = -1, first_negative = -1;
  std::vector<bool> is_sliver(nt);
  for (int e = 0; e < nt; ++e) {
    const double v = volume[e];
    is_sliver[e] = !(std::abs(v) > sliver);
    if (is_sliver[e]) {
      if (slivers++ == 0) first_sliver = e;
      continue;
    }
    if (v > 0 && positive++ == 0) first_positive = e;
    if (v < 0 && negative++ == 0) first_negative = e;
  }
  if (slivers > 0 && (slivers == nt || 100 * slivers > nt))
    throw error(where(source, tet_at, first_sliver, "tetrahedron"), ": degenerate tetrahedron (volume ", volume[first_sliver], "); ",
                slivers, " of the ", nt, " tetrahedra are degenerate, too many to drop (at most 1%)");
  if (positive > 0 && negative > 0) {
    const int odd = positive < negative ? first_positive : first_negative;
    throw error(where(source, tet_at, odd, "tetrahedron"), ": tetrahedron is inverted relative to the rest of the mesh (", positive,
                " positively and ", negative, " negatively oriented)");
  }
  checkNoOverlaps(mesh.T, is_sliver, source, tet_at);
  MeshRepairs repairs;
  repairs.slivers = slivers;
  if (slivers > 0) keepTets(mesh, [&](int e) { return !is_sliver[e]; });
  if (negative > 0) mesh.T.col(2).swap(mesh.T.col(3));  // all negative: flip to positive orientation
  repairs.unused_vertices = dropUnusedVertices(mesh);
  repairs.shared_positions = sharedPositions(mesh.V);
  return repairs;
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
