#include "core/solver/initial_hessian.h"

#include "core/objective/objective.h"

namespace qnsim {
namespace {

// Ours: A = M/h^2 + L, n x n, factored once, one solve for the x, y, z columns.
class LaplacianHessian final : public InitialHessian {
 public:
  explicit LaplacianHessian(SystemMatrix& system) : system_(system) {}
  void apply(const VecX&, VecX& q, const VecX*, const VecX*) override { system_.solve(q); }

 private:
  SystemMatrix& system_;
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

// An exact (PSD-projected) 3n x 3n Hessian: of the rest pose, factored once (Fig. 8 "rest-pose
// Hessian", M/h^2 + Hessian of E at the rest shape), or of the frame's first iterate, factored once
// per frame (Fig. 8 "per-frame Hessian").
class ExactHessian final : public InitialHessian {
 public:
  ExactHessian(Objective& objective, bool per_frame) : objective_(objective), per_frame_(per_frame), cholesky_(SparseCholesky::create(true)) {
    if (!per_frame_) factor(objective.model().rest);
  }
  void reset() override { stale_ = per_frame_; }
  void apply(const VecX& x, VecX& q, const VecX*, const VecX*) override {
    if (stale_) factor(x);
    cholesky_->solve(q);
  }
  long factorizations() const override { return factorizations_; }

 private:
  void factor(const VecX& x) {
    const SparseMatrix& H = objective_.hessian(x, /*project=*/true);
    if (factorizations_ == 0) cholesky_->analyze(H);
    cholesky_->factorize(H);
    ++factorizations_;
    stale_ = false;
  }
  Objective& objective_;
  bool per_frame_, stale_ = true;
  std::unique_ptr<SparseCholesky> cholesky_;
  long factorizations_ = 0;
};

}  // namespace

std::unique_ptr<InitialHessian> makeInitialHessian(InitialHessianKind kind, Objective& objective, SystemMatrix& system) {
  switch (kind) {
    case InitialHessianKind::Laplacian: return std::make_unique<LaplacianHessian>(system);
    case InitialHessianKind::ScaledIdentity: return std::make_unique<ScaledIdentity>(objective);
    case InitialHessianKind::RestHessian: return std::make_unique<ExactHessian>(objective, false);
    case InitialHessianKind::FrameHessian: return std::make_unique<ExactHessian>(objective, true);
  }
  return nullptr;
}

}  // namespace qnsim
