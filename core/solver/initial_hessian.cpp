#include "core/solver/initial_hessian.h"

#include <algorithm>

#include "core/math/svd3.h"
#include "core/objective/objective.h"
#include "core/solver/pcg.h"

namespace qnsim {
namespace {

// Ours: A = M/h^2 + L, n x n, factored once, one solve for the x, y, z columns.
// Under the contact barrier, which A does not hold, the vertices within its reach move along their
// contact directions n (up to three per vertex, orthonormal) by the barrier's own Newton step instead
// (A's diagonal a plus the barrier's curvature k along n), and A^-1 acts on the rest:
//   A0^-1 = (I - N) A^-1 (I - N) + N D^-1 N,   N = the blocks sum n n^T,  D = a + k along each n,
// symmetric positive definite like A^-1. Without it the barrier's steep gradient goes through A^-1,
// which spreads it over the body as a large step into whatever else the body touches, and collision
// detection cuts the whole step to almost nothing.
class LaplacianHessian final : public InitialHessian {
 public:
  LaplacianHessian(const Objective& objective, SystemMatrix& system) : objective_(objective), system_(system) {}
  bool seesBarrierCurvature() const override { return true; }
  void apply(const VecX& x, VecX& q, const VecX*, const VecX*) override {
    if (objective_.barrier_curvature) objective_.barrier_curvature(x, contacts_);
    if (!objective_.barrier_curvature || contacts_.empty()) return system_.solve(q);
    // A vertex's further directions only where the barrier is stiffer there than A's diagonal: where
    // it is softer, A^-1's coupling to the rest of the body gives the better step.
    size_t kept = 0;
    for (size_t i = 0; i < contacts_.size(); ++i) {
      const NormalStiffness& c = contacts_[i];
      const bool first = i == 0 || contacts_[i - 1].vertex != c.vertex;
      if (first || c.stiffness >= system_.matrix().coeff(c.vertex, c.vertex)) contacts_[kept++] = c;
    }
    contacts_.resize(kept);
    along_.resize(static_cast<Eigen::Index>(contacts_.size()));
    for (size_t i = 0; i < contacts_.size(); ++i) {
      auto v = vertex(q, contacts_[i].vertex);
      along_[i] = contacts_[i].normal.dot(v);
      v -= along_[i] * contacts_[i].normal;
    }
    system_.solve(q);
    for (size_t i = 0; i < contacts_.size(); ++i) {
      const NormalStiffness& c = contacts_[i];
      auto v = vertex(q, c.vertex);
      v += (along_[i] / (system_.matrix().coeff(c.vertex, c.vertex) + c.stiffness) - c.normal.dot(v)) * c.normal;
    }
  }

 private:
  const Objective& objective_;
  SystemMatrix& system_;
  std::vector<NormalStiffness> contacts_;
  VecX along_;
};

// Ours solved by preconditioned conjugate gradients (Figs. 16, 17), one column (x, y, z) at a time, as
// the direct solve does; an ichol of the 3n x 3n rest-pose Hessian does not fit these n x n columns,
// so with it the three are solved together as one system with A (x) I3.
class LaplacianByCg final : public InitialHessian {
 public:
  LaplacianByCg(SystemMatrix& system, std::unique_ptr<Pcg> cg)
      : system_(system), cg_(std::move(cg)), joint_(!cg_->fits(system.matrix().rows())) {
    if (joint_) lifted_ = perCoordinate(system.matrix());
  }
  void apply(const VecX&, VecX& q, const VecX*, const VecX*) override {
    if (joint_) {
      cg_->solve(lifted_, q, solution_);
      q.swap(solution_);
      return;
    }
    const Eigen::Index n = q.size() / 3;
    for (int c = 0; c < 3; ++c) {
      column_ = Eigen::Map<const VecX, 0, Eigen::InnerStride<3>>(q.data() + c, n);
      cg_->solve(system_.matrix(), column_, solution_);
      Eigen::Map<VecX, 0, Eigen::InnerStride<3>>(q.data() + c, n) = solution_;
    }
  }

 private:
  SystemMatrix& system_;
  std::unique_ptr<Pcg> cg_;
  bool joint_;
  SparseMatrix lifted_;
  VecX column_, solution_;
};

// Nocedal and Wright's scaled identity: A0^-1 = (<s, t> / <t, t>) I from the newest pair; before the
// first pair, the inertia term's inverse h^2 / m (per vertex).
class ScaledIdentity final : public InitialHessian {
 public:
  explicit ScaledIdentity(const Objective& objective) : objective_(objective) {}
  void apply(const VecX&, VecX& q, const VecX* s, const VecX* t) override {
    if (s && t) {
      q *= s->dot(*t) / t->squaredNorm();
      return;
    }
    const VecX& mass = objective_.model().mass;
    for (Eigen::Index v = 0; v < mass.size(); ++v) vertex(q, v) /= objective_.inertiaWeight() * mass[v];
  }

 private:
  const Objective& objective_;
};

// The PSD-projected 3n x 3n Hessian M/h^2 + Hessian of E at some x, Cholesky-factored (the symbolic
// analysis of its fixed pattern is done once).
class HessianFactor {
 public:
  explicit HessianFactor(Objective& objective) : objective_(objective), cholesky_(SparseCholesky::create(true)) {}
  void factor(const VecX& x) {
    const SparseMatrix& H = objective_.hessian(x, /*project=*/true);
    if (factorizations_ == 0) cholesky_->analyze(H);
    cholesky_->factorize(H);
    ++factorizations_;
  }
  void solve(VecX& q) const { cholesky_->solve(q); }
  long factorizations() const { return factorizations_; }

 private:
  Objective& objective_;
  std::unique_ptr<SparseCholesky> cholesky_;
  long factorizations_ = 0;
};

// An exact Hessian: of the rest pose, factored once (Fig. 8 "rest-pose Hessian", M/h^2 + Hessian of E
// at the rest shape), or of the frame's first iterate, factored once per frame (Fig. 8 "per-frame
// Hessian"; again when the contact set changes within the frame).
class ExactHessian final : public InitialHessian {
 public:
  ExactHessian(Objective& objective, bool per_frame) : hessian_(objective), per_frame_(per_frame) {
    if (!per_frame_) hessian_.factor(objective.model().rest);
  }
  void reset() override { stale_ = per_frame_; }
  void apply(const VecX& x, VecX& q, const VecX*, const VecX*) override {
    if (stale_) hessian_.factor(x), stale_ = false;
    hessian_.solve(q);
  }
  long factorizations() const override { return hessian_.factorizations(); }

 private:
  HessianFactor hessian_;
  bool per_frame_, stale_ = true;
};

// The same exact Hessians solved by preconditioned conjugate gradients instead of a factorization
// (linear_solver = cg; Fig. 17 (c)-(f) for the per-frame one): the PSD-projected Hessian is assembled,
// not factored, so A0 stays positive definite as with the direct solve and each PCG iterate is a
// descent direction.
class ExactHessianByCg final : public InitialHessian {
 public:
  ExactHessianByCg(Objective& objective, bool per_frame, std::unique_ptr<Pcg> cg)
      : objective_(objective), cg_(std::move(cg)), per_frame_(per_frame), stale_(per_frame) {
    if (!per_frame_) H_ = objective.hessian(objective.model().rest, /*project=*/true);
  }
  void reset() override { stale_ = per_frame_; }
  void apply(const VecX& x, VecX& q, const VecX*, const VecX*) override {
    if (stale_) H_ = objective_.hessian(x, /*project=*/true), stale_ = false;
    cg_->solve(H_, q, solution_);
    q.swap(solution_);
  }

 private:
  Objective& objective_;
  std::unique_ptr<Pcg> cg_;
  bool per_frame_, stale_;
  SparseMatrix H_;  // a copy: the objective's Hessian storage is reused by the next assembly
  VecX solution_;
};

// Per-vertex stiffness warping of a Hessian K factored at a reference state x_r (Mueller et al. 2002;
// Hecht et al. 2012): A0^-1 = W K^-1 W^T with W block diagonal, each vertex's block W_v = R_v R_r,v^T,
// R_v the polar factor of the volume-weighted mean deformation gradient of its tets at the current
// frame's first iterate (again after a contact change) and R_r,v the same at x_r. W is orthogonal, so
// A0 = W K W^T stays symmetric positive definite; unlike M/h^2 + L it is not rotation invariant element
// by element, which is the ghost-force issue of Sec. 2.
//  - refresh_frames = 0: K is the rest-pose Hessian, factored once (R_r = I; Fig. 8 "warped").
//  - refresh_frames = N: Hecht et al.'s baseline (Fig. 10), K refactored at the first iterate of every
//    N-th frame over the whole domain (as the paper ran it: no spatially local updates); on that frame
//    W = I, so N = 1 is the per-frame Hessian. Their warp-cancelling form rotates per element; per
//    vertex is the same idea with the rotations this file already has.
class WarpedHessian final : public InitialHessian {
 public:
  WarpedHessian(Objective& objective, int refresh_frames) : objective_(objective), hessian_(objective), refresh_frames_(refresh_frames) {
    if (refresh_frames_ == 0) hessian_.factor(objective.model().rest), reference_.assign(objective.model().vertexCount(), Mat3::Identity());
  }
  void prepare(const VecX&) override {
    refresh_due_ = refresh_frames_ > 0 && frame_ % refresh_frames_ == 0;
    ++frame_;
  }
  void reset() override { stale_ = true; }
  void apply(const VecX& x, VecX& q, const VecX*, const VecX*) override {
    if (refresh_due_ || hessian_.factorizations() == 0) refresh(x);
    if (stale_) warp(x);
    for (Eigen::Index v = 0; v < q.size() / 3; ++v) vertex(q, v) = warp_[v].transpose() * vertex(q, v);
    hessian_.solve(q);
    for (Eigen::Index v = 0; v < q.size() / 3; ++v) vertex(q, v) = warp_[v] * vertex(q, v);
  }
  long factorizations() const override { return hessian_.factorizations(); }

 private:
  void refresh(const VecX& x) {
    hessian_.factor(x);
    reference_ = vertexRotations(objective_.model(), x);
    warp_.assign(reference_.size(), Mat3::Identity());
    refresh_due_ = stale_ = false;
  }
  void warp(const VecX& x) {
    warp_ = vertexRotations(objective_.model(), x);
    for (size_t v = 0; v < warp_.size(); ++v) warp_[v] *= reference_[v].transpose();
    stale_ = false;
  }

  Objective& objective_;
  HessianFactor hessian_;
  int refresh_frames_;
  long frame_ = 0;  // frames prepared so far
  bool refresh_due_ = false, stale_ = true;
  std::vector<Mat3> reference_, warp_;  // R_r and W, per vertex
};

}  // namespace

std::vector<Mat3> vertexRotations(const Model& model, const VecX& x) {
  std::vector<Mat3> mean(model.vertexCount(), Mat3::Zero());
  for (int e = 0; e < model.tets.size(); ++e) {
    if (model.tets.removed[e]) continue;
    const Mat3 F = model.tets.volume[e] * model.tets.deformationGradient(x, e);
    for (int a = 0; a < 4; ++a) mean[model.tets.vertices[e][a]] += F;
  }
  std::vector<Mat3> rotations(model.vertexCount(), Mat3::Identity());
  for (int v = 0; v < model.vertexCount(); ++v)
    if (!mean[v].isZero()) {
      const Svd3 svd = svd3(mean[v]);  // inversion-aware: U V^T is a rotation
      rotations[v] = svd.U * svd.V.transpose();
    }
  return rotations;
}

std::unique_ptr<InitialHessian> makeHechtHessian(Objective& objective, int refresh_frames) {
  return std::make_unique<WarpedHessian>(objective, std::max(refresh_frames, 1));
}

std::unique_ptr<InitialHessian> makeInitialHessian(InitialHessianKind kind, Objective& objective, SystemMatrix& system,
                                                   const SolverSettings& settings) {
  const bool cg = settings.linear_solver != LinearSolverKind::Direct;
  const auto pcg = [&] { return std::make_unique<Pcg>(settings, objective, system); };
  switch (kind) {
    case InitialHessianKind::Laplacian:
      if (cg) return std::make_unique<LaplacianByCg>(system, pcg());
      return std::make_unique<LaplacianHessian>(objective, system);
    case InitialHessianKind::ScaledIdentity: return std::make_unique<ScaledIdentity>(objective);
    case InitialHessianKind::RestHessian:
    case InitialHessianKind::FrameHessian: {
      const bool per_frame = kind == InitialHessianKind::FrameHessian;
      if (cg) return std::make_unique<ExactHessianByCg>(objective, per_frame, pcg());
      return std::make_unique<ExactHessian>(objective, per_frame);
    }
    case InitialHessianKind::WarpedRestHessian: return std::make_unique<WarpedHessian>(objective, 0);
  }
  return nullptr;
}

}  // namespace qnsim
