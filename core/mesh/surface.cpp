#include "core/mesh/surface.h"

#include <algorithm>
#include <array>
#include <vector>

#include "qnsim/error.h"

namespace qnsim {
namespace {

struct FaceKey {
  std::array<int, 3> sorted;  // the face's vertices in increasing order: equal for shared faces
  int tet_face;               // 4 * tet + local face
  bool operator<(const FaceKey& o) const { return sorted != o.sorted ? sorted < o.sorted : tet_face < o.tet_face; }
};

}  // namespace

TriIndices boundaryFaces(const TetIndices& T) {
  const Eigen::Index nt = T.rows();
  std::vector<FaceKey> faces(static_cast<std::size_t>(4 * nt));
  for (Eigen::Index e = 0; e < nt; ++e)
    for (int j = 0; j < 4; ++j) {
      FaceKey& key = faces[static_cast<std::size_t>(4 * e + j)];
      key.sorted = {T(e, kTetFaces[j][0]), T(e, kTetFaces[j][1]), T(e, kTetFaces[j][2])};
      std::sort(key.sorted.begin(), key.sorted.end());
      key.tet_face = static_cast<int>(4 * e + j);
    }
  std::sort(faces.begin(), faces.end());

  std::vector<int> boundary;  // tet_face of every face seen exactly once
  for (std::size_t i = 0; i < faces.size();) {
    std::size_t j = i + 1;
    while (j < faces.size() && faces[j].sorted == faces[i].sorted) ++j;
    if (j - i == 1) boundary.push_back(faces[i].tet_face);
    i = j;
  }
  std::sort(boundary.begin(), boundary.end());

  TriIndices F(static_cast<Eigen::Index>(boundary.size()), 3);
  for (std::size_t f = 0; f < boundary.size(); ++f) {
    const int e = boundary[f] / 4, j = boundary[f] % 4;
    for (int k = 0; k < 3; ++k) F(static_cast<Eigen::Index>(f), k) = T(e, kTetFaces[j][k]);
  }
  return F;
}

SurfaceMesh boundarySurface(const TetMesh& mesh) {
  Eigen::VectorXi surface_to_tet;
  return boundarySurface(mesh, surface_to_tet);
}

SurfaceMesh boundarySurface(const TetMesh& mesh, Eigen::VectorXi& surface_to_tet) {
  SurfaceMesh surface;
  surface.F = boundaryFaces(mesh.T);
  std::vector<int> new_index(static_cast<std::size_t>(mesh.V.rows()), -1);
  for (Eigen::Index i = 0; i < surface.F.size(); ++i) {
    const int v = surface.F.data()[i];
    if (v < 0 || v >= mesh.V.rows()) throw error("boundarySurface: vertex index ", v, " is out of range (", mesh.V.rows(), " vertices)");
    new_index[v] = 0;
  }
  std::vector<int> used;
  for (std::size_t v = 0; v < new_index.size(); ++v)
    if (new_index[v] == 0) new_index[v] = static_cast<int>(used.size()), used.push_back(static_cast<int>(v));
  for (Eigen::Index i = 0; i < surface.F.size(); ++i) surface.F.data()[i] = new_index[surface.F.data()[i]];
  surface_to_tet = Eigen::Map<const Eigen::VectorXi>(used.data(), static_cast<Eigen::Index>(used.size()));
  gatherBoundaryPositions(flatten(mesh.V), surface_to_tet, surface.V);
  return surface;
}

void gatherBoundaryPositions(Eigen::Ref<const VecX> x, const Eigen::VectorXi& surface_to_tet, MatX3& V) {
  V.resize(surface_to_tet.size(), 3);
  for (Eigen::Index i = 0; i < surface_to_tet.size(); ++i) V.row(i) = x.segment<3>(3 * surface_to_tet[i]).transpose();
}

}  // namespace qnsim
