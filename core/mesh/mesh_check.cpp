#include "core/mesh/mesh_check.h"

#include <cmath>

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

}  // namespace qnsim
