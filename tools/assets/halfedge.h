#pragma once
// A closed, oriented triangle mesh with the local edits an isotropic remesher needs (split, flip,
// collapse). Corner-table layout: halfedges 3f, 3f+1, 3f+2 form face f, so next/prev are arithmetic
// and only the target vertex and the twin are stored. Halfedge 3f+k runs from F(f,k) to F(f,k+1).
#include <vector>

#include "qnsim/mesh.h"

namespace qnsim::assets {

class HalfedgeMesh {
 public:
  // Throws qnsim::Error unless every edge has exactly two consistently oriented faces and every
  // vertex has a single fan (a closed 2-manifold).
  explicit HalfedgeMesh(const SurfaceMesh& mesh);
  SurfaceMesh toSurface() const;  // drops deleted elements and renumbers

  static int next(int h) { return h - h % 3 + (h + 1) % 3; }
  static int prev(int h) { return h - h % 3 + (h + 2) % 3; }
  static int face(int h) { return h / 3; }
  int to(int h) const { return to_[h]; }
  int from(int h) const { return to_[prev(h)]; }
  int twin(int h) const { return twin_[h]; }
  int outgoing(int v) const { return out_[v]; }
  int halfedgeCount() const { return static_cast<int>(to_.size()); }
  int vertexCount() const { return static_cast<int>(pos_.size()); }
  bool faceAlive(int f) const { return face_alive_[f]; }
  bool vertexAlive(int v) const { return out_[v] >= 0; }
  Vec3& position(int v) { return pos_[v]; }
  const Vec3& position(int v) const { return pos_[v]; }

  // Calls fn(h) for each halfedge leaving v.
  template <class Fn>
  void forOutgoing(int v, Fn fn) const {
    const int start = out_[v];
    int h = start;
    do {
      fn(h);
      h = twin_[prev(h)];
    } while (h != start);
  }
  int valence(int v) const;
  std::vector<int> neighbours(int v) const;
  Vec3 faceNormal(int f) const;  // not normalised (twice the area)
  Vec3 vertexNormal(int v) const;

  // Throws qnsim::Error if an internal invariant is broken (twins, fans, face orientation links).
  void check() const;

  // Edits. Each keeps the mesh a closed manifold; the caller checks geometry beforehand.
  int split(int h, const Vec3& point);        // returns the new vertex
  void flip(int h);                           // caller checks flipAllowed
  bool flipAllowed(int h) const;              // topology only
  bool collapseAllowed(int h) const;          // link condition and minimum valence
  void collapse(int h, const Vec3& point);    // removes from(h), keeps to(h) at point

 private:
  void link(int a, int b) {
    twin_[a] = b;
    twin_[b] = a;
  }
  std::vector<Vec3> pos_;
  std::vector<int> out_;   // one outgoing halfedge per vertex; -1 once deleted
  std::vector<int> to_;    // per halfedge
  std::vector<int> twin_;  // per halfedge
  std::vector<char> face_alive_;
};

}  // namespace qnsim::assets
