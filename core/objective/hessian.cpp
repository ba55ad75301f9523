// The exact Hessian of g for Newton's method, with per-element filtering (element_hessian.h): each
// element's dP/dF is assembled from its eigensystem with negative eigenvalues clamped to zero (Teran et
// al. 2005) or made positive, so every 12x12 tet block V B^T (dP/dF) B is positive semidefinite. Removed
// elements add zero blocks: the sparsity pattern stays that of the whole model.
#include <algorithm>

#include "core/common/parallel.h"
#include "core/objective/element_hessian.h"
#include "core/objective/objective.h"

namespace qnsim {

// (bound / slip) P while sticking; (bound / u) (P - s s^T) while sliding (s the unit slip), which is
// positive semidefinite either way.
Mat3 FrictionTerm::hessian(const Vec3& x) const {
  const Mat3 P = Mat3::Identity() - normal * normal.transpose();
  const Vec3 s = P * (x - anchor);
  const double u = s.norm();
  if (u <= slip) return bound / slip * P;
  return bound / u * (P - s * s.transpose() / (u * u));
}

void Objective::buildHessianPattern() {
  const int n = model_.vertexCount();
  std::vector<Eigen::Triplet<double>> entries;
  const auto addBlock = [&entries](int a, int b) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) entries.emplace_back(3 * a + r, 3 * b + c, 0.0);
  };
  for (int v = 0; v < n; ++v) addBlock(v, v);
  for (const auto& t : model_.tets.vertices)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) addBlock(t[a], t[b]);
  for (const auto& s : model_.springs.vertices)
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) addBlock(s[a], s[b]);
  hessian_.resize(3 * n, 3 * n);
  hessian_.setFromTriplets(entries.begin(), entries.end());
  hessian_.makeCompressed();
  // Index of entry (3a, 3b + c): the block's three rows follow it in column 3b + c.
  const auto blockIndex = [this](int a, int b, int c) {
    const int col = 3 * b + c;
    const int* begin = hessian_.innerIndexPtr() + hessian_.outerIndexPtr()[col];
    const int* end = hessian_.innerIndexPtr() + hessian_.outerIndexPtr()[col + 1];
    return static_cast<int>(std::lower_bound(begin, end, 3 * a) - hessian_.innerIndexPtr());
  };
  const auto indexBlocks = [&](const auto& elements, int size, std::vector<int>& out) {
    out.clear();
    for (const auto& v : elements)
      for (int a = 0; a < size; ++a)
        for (int b = 0; b < size; ++b)
          for (int c = 0; c < 3; ++c) out.push_back(blockIndex(v[a], v[b], c));
  };
  indexBlocks(model_.tets.vertices, 4, tet_block_index_);
  indexBlocks(model_.springs.vertices, 2, spring_block_index_);
  diagonal_block_index_.clear();
  for (int v = 0; v < n; ++v)
    for (int c = 0; c < 3; ++c) diagonal_block_index_.push_back(blockIndex(v, v, c));
  tet_hessian_.resize(model_.tets.size());
}

const SparseMatrix& Objective::hessian(const VecX& x, EigenvalueFilter filter) {
  if (hessian_.nonZeros() == 0) buildHessianPattern();
  double* values = hessian_.valuePtr();
  std::fill(values, values + hessian_.nonZeros(), 0.0);
  const auto scatter = [values](const int* index, const auto& block, int size) {
    for (int a = 0; a < size; ++a)
      for (int b = 0; b < size; ++b)
        for (int c = 0; c < 3; ++c, ++index)
          for (int r = 0; r < 3; ++r) values[*index + r] += block(3 * a + r, 3 * b + c);
  };
  // The Hessian of c E(s x + o) is c s^2 times that of E at z = s x + o.
  const VecX& z = energyArgument(x);
  const double c = energy_scale_ * argument_scale_ * argument_scale_;
  const int nt = model_.tets.size();
  const bool damped = damping.active();  // its blocks are sums of squares: PSD, nothing to project
  parallelFor(nt, 64, [&](int begin, int end) {
    for (int e = begin; e < end; ++e) {
      if (model_.tets.removed[e]) {
        tet_hessian_[e].setZero();
        continue;
      }
      tet_hessian_[e] = c * tetHessian(model_, e, z, filter);
      if (damped) tet_hessian_[e] += dampingTetHessian(e);
    }
  });
  for (int e = 0; e < nt; ++e) scatter(&tet_block_index_[48 * e], tet_hessian_[e], 4);

  for (int s = 0; s < model_.springs.size(); ++s) {
    if (model_.springs.removed[s]) continue;
    const Eigen::Vector2i& v = model_.springs.vertices[s];
    const double k = model_.regions[model_.springs.region[s]].stiffness;
    Mat3 K = c * springBlock(vertex(z, v[0]) - vertex(z, v[1]), model_.springs.rest_length[s], k, filter);
    if (damped) K += damping.weight * k * damping.directions[s] * damping.directions[s].transpose();
    Eigen::Matrix<double, 6, 6> block;
    block << K, -K, -K, K;
    scatter(&spring_block_index_[12 * s], block, 2);
  }

  const auto addDiagonal = [&](int v, const Mat3& block) { scatter(&diagonal_block_index_[3 * v], block, 1); };
  for (int v = 0; v < model_.vertexCount(); ++v) addDiagonal(v, inertia_weight_ * model_.mass[v] * Mat3::Identity());
  for (const Attachment& a : model_.attachments) addDiagonal(a.vertex, c * a.stiffness * Mat3::Identity());
  for (const Drag& d : drags) addDiagonal(d.vertex, c * d.stiffness * Mat3::Identity());
  for (const ContactTerm& t : contacts)
    if (t.gap(z) < 0) addDiagonal(t.vertex, c * t.stiffness * t.normal * t.normal.transpose());
  // Self-contacts couple four vertices, outside the fixed sparsity pattern: their Gauss-Newton blocks
  // k g_i g_i^T (g_i the gap's gradient w.r.t. vertex i) go on the diagonal, positive semidefinite.
  Vec12 dgap;
  for (const SelfContactTerm& t : self_contacts) {
    if (t.gap(z, &dgap) >= 0) continue;
    for (int i = 0; i < 4; ++i) addDiagonal(t.vertices[i], c * t.stiffness * dgap.segment<3>(3 * i) * dgap.segment<3>(3 * i).transpose());
  }
  // Friction is dissipative and acts on x itself, outside the energy transform.
  for (const FrictionTerm& f : frictions) addDiagonal(f.vertex, f.hessian(vertex(x, f.vertex)));
  for (const WindTerm& t : winds) addDiagonal(t.vertex, t.stiffness);
  return hessian_;
}

}  // namespace qnsim
