#include "tools/assets/halfedge.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <unordered_map>

#include "qnsim/error.h"

namespace qnsim::assets {

HalfedgeMesh::HalfedgeMesh(const SurfaceMesh& mesh) {
  const int nv = static_cast<int>(mesh.V.rows()), nf = static_cast<int>(mesh.F.rows());
  pos_.resize(nv);
  for (int v = 0; v < nv; ++v) pos_[v] = mesh.V.row(v);
  out_.assign(nv, -1);
  to_.resize(3 * nf);
  twin_.assign(3 * nf, -1);
  face_alive_.assign(nf, 1);
  std::unordered_map<std::int64_t, int> directed;
  const auto key = [nv](int a, int b) { return static_cast<std::int64_t>(a) * nv + b; };
  for (int f = 0; f < nf; ++f)
    for (int k = 0; k < 3; ++k) {
      const int a = mesh.F(f, k), b = mesh.F(f, (k + 1) % 3), h = 3 * f + k;
      to_[h] = b;
      out_[a] = h;
      if (!directed.emplace(key(a, b), h).second) throw error("surface: edge ", a, "-", b, " is used twice in the same direction");
    }
  for (int h = 0; h < 3 * nf; ++h) {
    const auto it = directed.find(key(to_[h], from(h)));
    if (it == directed.end()) throw error("surface: edge ", from(h), "-", to_[h], " has only one face (the surface is open)");
    twin_[h] = it->second;
  }
  std::vector<int> fan_size(nv, 0), outgoing_count(nv, 0);
  for (int h = 0; h < 3 * nf; ++h) ++outgoing_count[from(h)];
  for (int v = 0; v < nv; ++v)
    if (out_[v] >= 0) forOutgoing(v, [&](int) { ++fan_size[v]; });
  for (int v = 0; v < nv; ++v)
    if (fan_size[v] != outgoing_count[v]) throw error("surface: vertex ", v, " is non-manifold (several fans meet there)");
}

SurfaceMesh HalfedgeMesh::toSurface() const {
  std::vector<int> index(pos_.size(), -1);
  int nv = 0, nf = 0;
  for (std::size_t v = 0; v < pos_.size(); ++v)
    if (out_[v] >= 0) index[v] = nv++;
  for (char alive : face_alive_) nf += alive ? 1 : 0;
  SurfaceMesh mesh;
  mesh.V.resize(nv, 3);
  mesh.F.resize(nf, 3);
  for (std::size_t v = 0; v < pos_.size(); ++v)
    if (index[v] >= 0) mesh.V.row(index[v]) = pos_[v];
  int row = 0;
  for (int f = 0; f < static_cast<int>(face_alive_.size()); ++f)
    if (face_alive_[f]) mesh.F.row(row++) << index[from(3 * f)], index[from(3 * f + 1)], index[from(3 * f + 2)];
  return mesh;
}

void HalfedgeMesh::check() const {
  for (int h = 0; h < halfedgeCount(); ++h) {
    if (!face_alive_[face(h)]) continue;
    const int t = twin_[h];
    if (t < 0 || !face_alive_[face(t)] || twin_[t] != h || to_[t] != from(h) || from(t) != to_[h])
      throw error("halfedge mesh: broken twin at ", h);
    if (out_[to_[h]] < 0) throw error("halfedge mesh: halfedge ", h, " ends at a deleted vertex");
  }
  for (int v = 0; v < vertexCount(); ++v) {
    if (out_[v] < 0) continue;
    if (!face_alive_[face(out_[v])] || from(out_[v]) != v) throw error("halfedge mesh: bad outgoing halfedge at vertex ", v);
    int n = 0;
    forOutgoing(v, [&](int h) {
      if (from(h) != v || ++n > 1000) throw error("halfedge mesh: broken fan at vertex ", v);
    });
  }
}

int HalfedgeMesh::valence(int v) const {
  int n = 0;
  forOutgoing(v, [&](int) { ++n; });
  return n;
}

std::vector<int> HalfedgeMesh::neighbours(int v) const {
  std::vector<int> result;
  forOutgoing(v, [&](int h) { result.push_back(to_[h]); });
  return result;
}

Vec3 HalfedgeMesh::faceNormal(int f) const {
  const Vec3& a = pos_[from(3 * f)];
  return (pos_[to_[3 * f]] - a).cross(pos_[to_[3 * f + 1]] - a);
}

Vec3 HalfedgeMesh::vertexNormal(int v) const {
  Vec3 n = Vec3::Zero();
  forOutgoing(v, [&](int h) { n += faceNormal(face(h)); });
  return n.normalized();
}

int HalfedgeMesh::split(int h, const Vec3& point) {
  const int h0 = h, h1 = next(h0), t0 = twin_[h], t1 = next(t0);
  const int a = from(h0), b = to_[h0], c = to_[h1], d = to_[t1];
  const int oh1 = twin_[h1], ot1 = twin_[t1];
  const int m = static_cast<int>(pos_.size());
  pos_.push_back(point);
  out_.push_back(h1);
  // Old faces become (a, m, c) and (b, m, d); new faces (m, b, c) and (m, a, d).
  to_[h0] = m;
  to_[t0] = m;
  const int g0 = static_cast<int>(to_.size()), k0 = g0 + 3;
  to_.insert(to_.end(), {b, c, m, a, d, m});
  twin_.resize(to_.size(), -1);
  face_alive_.insert(face_alive_.end(), {1, 1});
  link(h0, k0);
  link(t0, g0);
  link(h1, g0 + 2);
  link(t1, k0 + 2);
  link(g0 + 1, oh1);
  link(k0 + 1, ot1);
  out_[a] = h0;
  out_[b] = g0 + 1;
  return m;
}

bool HalfedgeMesh::flipAllowed(int h) const {
  const int a = from(h), b = to_[h], c = to_[next(h)], d = to_[next(twin_[h])];
  if (c == d || valence(a) <= 3 || valence(b) <= 3) return false;
  const auto nc = neighbours(c);
  return std::find(nc.begin(), nc.end(), d) == nc.end();
}

void HalfedgeMesh::flip(int h) {
  const int h0 = h, h1 = next(h0), h2 = prev(h0), t0 = twin_[h], t1 = next(t0), t2 = prev(t0);
  const int a = from(h0), b = to_[h0], c = to_[h1], d = to_[t1];
  const int oh1 = twin_[h1], oh2 = twin_[h2], ot1 = twin_[t1], ot2 = twin_[t2];
  // Quad a, d, b, c; the new diagonal c-d makes faces (c, d, b) and (d, c, a).
  to_[h0] = d;
  to_[h1] = b;
  to_[h2] = c;
  to_[t0] = c;
  to_[t1] = a;
  to_[t2] = d;
  link(h0, t0);
  link(h1, ot2);
  link(h2, oh1);
  link(t1, oh2);
  link(t2, ot1);
  out_[a] = t2;
  out_[b] = h2;
  out_[c] = h0;
  out_[d] = t0;
}

bool HalfedgeMesh::collapseAllowed(int h) const {
  const int a = from(h), b = to_[h], c = to_[next(h)], d = to_[next(twin_[h])];
  if (c == d || valence(c) <= 3 || valence(d) <= 3) return false;
  // Link condition: a and b may share no neighbour other than c and d.
  auto na = neighbours(a), nb = neighbours(b);
  std::sort(na.begin(), na.end());
  std::sort(nb.begin(), nb.end());
  std::vector<int> common;
  std::set_intersection(na.begin(), na.end(), nb.begin(), nb.end(), std::back_inserter(common));
  return common.size() == 2;
}

void HalfedgeMesh::collapse(int h, const Vec3& point) {
  const int h1 = next(h), h2 = prev(h), t = twin_[h], t1 = next(t), t2 = prev(t);
  const int a = from(h), b = to_[h], c = to_[h1], d = to_[t1];
  const int oh1 = twin_[h1], oh2 = twin_[h2], ot1 = twin_[t1], ot2 = twin_[t2];
  forOutgoing(a, [&](int g) { to_[prev(g)] = b; });  // every edge into a now ends at b
  link(oh1, oh2);
  link(ot1, ot2);
  out_[b] = oh2;
  out_[c] = oh1;
  out_[d] = ot1;
  out_[a] = -1;
  face_alive_[face(h)] = 0;
  face_alive_[face(t)] = 0;
  pos_[b] = point;
}

}  // namespace qnsim::assets
