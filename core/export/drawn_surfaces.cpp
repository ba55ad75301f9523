#include "core/export/drawn_surfaces.h"

namespace qnsim {

std::vector<DrawnSurface> drawnSurfaces(const Model& model) {
  std::vector<DrawnSurface> out;
  for (const Body& body : model.bodies) {
    DrawnSurface s;
    s.name = body.name;
    s.double_sided = body.is_cloth;
    if (body.render) {
      const RenderMesh& r = *body.render;
      s.index = r.tet_vertices;
      s.weight = r.weights;
      s.F = r.F;
      s.uv = r.uv;
    } else {
      if (body.surface.rows() == 0) continue;
      // The vertices the surface uses, in increasing order, as the renderer's surface view has them.
      std::vector<int> local(model.vertexCount(), -1);
      for (Eigen::Index i = 0; i < body.surface.size(); ++i) local[body.surface.data()[i]] = 0;
      for (int v = 0; v < model.vertexCount(); ++v)
        if (local[v] == 0) {
          local[v] = s.vertexCount();
          s.index.emplace_back(v, v, v, v);
          s.weight.emplace_back(1.0, 0.0, 0.0, 0.0);
        }
      s.F.resize(body.surface.rows(), 3);
      for (Eigen::Index i = 0; i < body.surface.size(); ++i) s.F.data()[i] = local[body.surface.data()[i]];
    }
    if (s.F.rows() > 0) out.push_back(std::move(s));
  }
  return out;
}

void drawnPositions(const DrawnSurface& surface, const VecX& x, MatX3& P) {
  const int n = surface.vertexCount();
  P.resize(n, 3);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector4i& k = surface.index[i];
    const Eigen::Vector4d& w = surface.weight[i];
    if (w[1] == 0.0 && w[2] == 0.0 && w[3] == 0.0 && w[0] == 1.0) {
      P.row(i) = vertex(x, k[0]).transpose();  // a simulation vertex itself, exactly
      continue;
    }
    P.row(i) = (w[0] * vertex(x, k[0]) + w[1] * vertex(x, k[1]) + w[2] * vertex(x, k[2]) + w[3] * vertex(x, k[3])).transpose();
  }
}

void vertexNormals(const MatX3& P, const TriIndices& F, MatX3& N) {
  N.setZero(P.rows(), 3);
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    const Vec3 a = P.row(F(f, 0)), b = P.row(F(f, 1)), c = P.row(F(f, 2));
    const Vec3 n = (b - a).cross(c - a);  // twice the area along the normal: area weighting
    for (int k = 0; k < 3; ++k) N.row(F(f, k)) += n.transpose();
  }
  for (Eigen::Index v = 0; v < N.rows(); ++v) {
    const double length = N.row(v).norm();
    if (length > 0) N.row(v) /= length;
    else N.row(v) = Vec3::UnitY().transpose();  // glTF wants every normal of unit length
  }
}

}  // namespace qnsim
