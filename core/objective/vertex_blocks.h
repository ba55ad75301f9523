#pragma once
// g seen from one vertex with every other vertex held (Vertex Block Descent; block-Jacobi descent):
//   g_v(x_v) = w/2 m_v |x_v - y_v|^2 + the terms of g that touch v (its tets and springs, attachments,
//              contacts, self-contacts, friction, drag, wind),
// whose gradient is the v-th block of grad g and whose 3 x 3 Hessian, element blocks filtered to be
// positive semidefinite (element_hessian.h), is positive definite (w m_v I plus PSD blocks). Other
// integrators' c E(s x + o) and material damping are handled as the objective handles them.
#include <vector>

#include "core/model/coloring.h"
#include "core/objective/objective.h"

namespace qnsim {

class VertexBlocks {
 public:
  VertexBlocks(const Objective& objective, EigenvalueFilter filter);

  // Lists the frame's per-vertex terms and the energy argument's offsets; call at the start of each frame
  // and after the contact set changes.
  void index();

  struct Block {
    double energy;  // the terms of g_v (elements whole: the change of g when only x_v moves)
    Vec3 gradient;
    Mat3 hessian;
  };
  Block block(const VecX& x, int v) const;

  // For block Jacobi, where every vertex's block is taken at the same x: each tet's share of its four
  // vertices' blocks computed once (one SVD, not four), which block() reads until dropTetCache().
  void cacheTets(const VecX& x);
  void dropTetCache() { tet_cache_.clear(); }

  const VertexElements& incidence() const { return incident_; }

 private:
  // A term of g on a few vertices, by kind and index into the objective's list (or the model's
  // attachments); `slot` is the vertex's place among a self-contact's four.
  struct Term {
    enum class Kind { Attachment, Contact, SelfContact, Friction, Drag, Wind } kind;
    int index, slot;
  };
  Vec3 argument(const VecX& x, int v) const;     // z_v = s x_v + o_v
  Mat3 deformation(const VecX& x, int e) const;  // F(z) of tet e
  TetVertexTerms tetTerms(const VecX& x, int e, const TetVertexTerms& material, int a) const;
  void addTet(const VecX& x, int entry, Block& b) const;
  void addSpring(const VecX& x, int entry, Block& b) const;
  void addTerm(const VecX& x, int v, const Term& t, Block& b) const;

  const Objective& objective_;
  const Model& model_;
  EigenvalueFilter filter_;
  VertexElements incident_;
  std::vector<Mat3> offset_gradient_;  // per tet: F(o), when s != 1
  std::vector<int> term_start_;        // CSR of terms_ per vertex
  std::vector<Term> terms_;
  std::vector<TetVertexTerms> tet_cache_;  // 4 e + a, while cached
};

}  // namespace qnsim
