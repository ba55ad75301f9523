#include "tools/assets/remesh.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "tools/assets/halfedge.h"

namespace qnsim::assets {
namespace {

class Remesher {
 public:
  Remesher(const SurfaceMesh& input, const RemeshOptions& options) : m_(input), opt_(options) {}

  SurfaceMesh run() {
    for (int iter = 0; iter < opt_.iterations; ++iter) {
      splitLong();
      collapseShort();
      flipToValence();
      relax();
    }
    collapseShort();  // clean any sliver left by the last relaxation
    relax();
    m_.check();
    return m_.toSurface();
  }

 private:
  double length(int h) const { return (m_.position(m_.to(h)) - m_.position(m_.from(h))).norm(); }
  Vec3 midpoint(int h) const { return 0.5 * (m_.position(m_.to(h)) + m_.position(m_.from(h))); }
  double target(int h) const { return opt_.edge_length(midpoint(h)); }
  bool isEdgeRep(int h) const { return m_.faceAlive(HalfedgeMesh::face(h)) && h < m_.twin(h); }

  // Only edges that exist when the pass starts: a degenerate (collinear) triangle can otherwise make
  // split after split reproduce an edge of the same length, forever.
  void splitLong() {
    const int end = m_.halfedgeCount();
    for (int h = 0; h < end; ++h)
      if (isEdgeRep(h) && length(h) > 4.0 / 3.0 * target(h)) m_.split(h, opt_.project(midpoint(h)));
  }

  // Moving from(h) and to(h) to p must keep every surviving face facing the same way and create no
  // edge longer than the split threshold (or the next pass would split it again).
  bool collapseKeepsShape(int h, const Vec3& p, double max_edge) const {
    const int a = m_.from(h), b = m_.to(h);
    const int dead0 = HalfedgeMesh::face(h), dead1 = HalfedgeMesh::face(m_.twin(h));
    bool ok = true;
    for (int v : {a, b})
      m_.forOutgoing(v, [&](int g) {
        const int f = HalfedgeMesh::face(g);
        if (!ok || f == dead0 || f == dead1) return;
        const Vec3 q1 = m_.position(m_.to(g)), q2 = m_.position(m_.to(HalfedgeMesh::next(g)));
        const Vec3 n_new = (q1 - p).cross(q2 - p), n_old = m_.faceNormal(f);
        if ((q1 - p).norm() > max_edge || n_new.dot(n_old) <= 0.2 * n_new.norm() * n_old.norm()) ok = false;
      });
    return ok;
  }

  void collapseShort() {
    for (int h = 0; h < m_.halfedgeCount(); ++h) {
      if (!m_.faceAlive(HalfedgeMesh::face(h))) continue;
      const double l = target(h);
      if (length(h) >= 0.8 * l || !m_.collapseAllowed(h)) continue;
      const Vec3 p = opt_.project(midpoint(h));
      if (collapseKeepsShape(h, p, 4.0 / 3.0 * l)) m_.collapse(h, p);
    }
  }

  bool flipKeepsShape(int h) const {
    const Vec3 a = m_.position(m_.from(h)), b = m_.position(m_.to(h));
    const Vec3 c = m_.position(m_.to(HalfedgeMesh::next(h))), d = m_.position(m_.to(HalfedgeMesh::next(m_.twin(h))));
    const Vec3 n0 = (b - a).cross(c - a).normalized(), n1 = (a - b).cross(d - b).normalized();
    const Vec3 m0 = (d - c).cross(b - c).normalized(), m1 = (c - d).cross(a - d).normalized();
    // Only flip across nearly flat hinges, and never into a folded pair.
    return n0.dot(n1) > 0.8 && m0.dot(m1) > 0.8 && m0.dot(n0 + n1) > 0 && m1.dot(n0 + n1) > 0;
  }

  void flipToValence() {
    for (int h = 0; h < m_.halfedgeCount(); ++h) {
      if (!isEdgeRep(h)) continue;
      const int a = m_.from(h), b = m_.to(h), c = m_.to(HalfedgeMesh::next(h)), d = m_.to(HalfedgeMesh::next(m_.twin(h)));
      const int va = m_.valence(a), vb = m_.valence(b), vc = m_.valence(c), vd = m_.valence(d);
      const int before = std::abs(va - 6) + std::abs(vb - 6) + std::abs(vc - 6) + std::abs(vd - 6);
      const int after = std::abs(va - 7) + std::abs(vb - 7) + std::abs(vc - 5) + std::abs(vd - 5);
      if (after < before && m_.flipAllowed(h) && flipKeepsShape(h)) m_.flip(h);
    }
  }

  // Moves each vertex towards the centroid of its neighbours within the tangent plane, then back
  // onto the surface. Positions update together so the result does not depend on vertex order.
  void relax() {
    std::vector<Vec3> moved(m_.vertexCount());
    for (int v = 0; v < m_.vertexCount(); ++v) {
      if (!m_.vertexAlive(v)) continue;
      Vec3 centroid = Vec3::Zero();
      int n = 0;
      m_.forOutgoing(v, [&](int h) {
        centroid += m_.position(m_.to(h));
        ++n;
      });
      const Vec3 normal = m_.vertexNormal(v), p = m_.position(v);
      const Vec3 step = centroid / n - p;
      moved[v] = p + 0.5 * (step - normal.dot(step) * normal);
    }
    for (int v = 0; v < m_.vertexCount(); ++v)
      if (m_.vertexAlive(v)) m_.position(v) = opt_.project(moved[v]);
  }

  HalfedgeMesh m_;
  const RemeshOptions& opt_;
};

}  // namespace

SurfaceMesh remesh(const SurfaceMesh& input, const RemeshOptions& options) { return Remesher(input, options).run(); }

SurfaceQuality surfaceQuality(const SurfaceMesh& mesh) {
  SurfaceQuality q;
  q.vertices = static_cast<int>(mesh.V.rows());
  q.faces = static_cast<int>(mesh.F.rows());
  q.min_angle_deg = 180;
  double total = 0;
  for (int f = 0; f < q.faces; ++f)
    for (int k = 0; k < 3; ++k) {
      const Vec3 p = mesh.V.row(mesh.F(f, k)), a = mesh.V.row(mesh.F(f, (k + 1) % 3)), b = mesh.V.row(mesh.F(f, (k + 2) % 3));
      const double cosine = (a - p).normalized().dot((b - p).normalized());
      q.min_angle_deg = std::min(q.min_angle_deg, std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / std::numbers::pi);
      total += (a - p).norm();
    }
  q.mean_edge = q.faces > 0 ? total / (3.0 * q.faces) : 0.0;
  return q;
}

}  // namespace qnsim::assets
