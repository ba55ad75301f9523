#include "core/solver/initial_hessian.h"

#include "core/math/svd3.h"
#include "core/solver/linear/conjugate_gradient.h"
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

// Ours solved by Jacobi-preconditioned conjugate gradients, one column (x, y, z) at a time (Fig. 16).
class LaplacianByCg final : public InitialHessian {
 public:
  LaplacianByCg(SystemMatrix& system, int iterations, double tolerance) : system_(system), iterations_(iterations), tolerance_(tolerance) {}
  void apply(const VecX&, VecX& q, const VecX*, const VecX*) override {
    const Eigen::Index n = q.size() / 3;
    for (int c = 0; c < 3; ++c) {
      column_ = Eigen::Map<const VecX, 0, Eigen::InnerStride<3>>(q.data() + c, n);
      conjugateGradient(system_.matrix(), column_, solution_, iterations_, tolerance_, false);
      Eigen::Map<VecX, 0, Eigen::InnerStride<3>>(q.data() + c, n) = solution_;
    }
  }

 private:
  SystemMatrix& system_;
  int iterations_;
  double tolerance_;
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

// Per-vertex stiffness warping of the rest-pose Hessian K (Mueller et al. 2002; Fig. 8):
// A0^-1 = R K^-1 R^T with R block diagonal, each vertex's rotation the polar factor of the
// volume-weighted mean deformation gradient of its tets at the frame's first iterate (identity for
// vertices without tets). R is orthogonal, so A0 = R K R^T stays symmetric positive definite; unlike
// M/h^2 + L it is not rotation invariant element by element, which is the ghost-force issue of Sec. 2.
class WarpedRestHessian final : public InitialHessian {
 public:
  explicit WarpedRestHessian(Objective& objective) : objective_(objective), rest_(objective, false) {}
  void reset() override { stale_ = true; }
  void apply(const VecX& x, VecX& q, const VecX* s, const VecX* t) override {
    if (stale_) rotations_ = vertexRotations(objective_.model(), x), stale_ = false;
    for (Eigen::Index v = 0; v < q.size() / 3; ++v) vertex(q, v) = rotations_[v].transpose() * vertex(q, v);
    rest_.apply(x, q, s, t);
    for (Eigen::Index v = 0; v < q.size() / 3; ++v) vertex(q, v) = rotations_[v] * vertex(q, v);
  }
  long factorizations() const override { return rest_.factorizations(); }

 private:
  Objective& objective_;
  ExactHessian rest_;
  bool stale_ = true;
  std::vector<Mat3> rotations_;
};

}  // namespace

std::vector<Mat3> vertexRotations(const Model& model, const VecX& x) {
  std::vector<Mat3> mean(model.vertexCount(), Mat3::Zero());
  for (int e = 0; e < model.tets.size(); ++e) {
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

std::unique_ptr<InitialHessian> makeInitialHessian(InitialHessianKind kind, Objective& objective, SystemMatrix& system,
                                                   const SolverSettings& settings) {
  switch (kind) {
    case InitialHessianKind::Laplacian:
      if (settings.linear_solver != LinearSolverKind::Direct)
        return std::make_unique<LaplacianByCg>(system, settings.cg_iterations, settings.cg_tolerance);
      return std::make_unique<LaplacianHessian>(system);
    case InitialHessianKind::ScaledIdentity: return std::make_unique<ScaledIdentity>(objective);
    case InitialHessianKind::RestHessian: return std::make_unique<ExactHessian>(objective, false);
    case InitialHessianKind::FrameHessian: return std::make_unique<ExactHessian>(objective, true);
    case InitialHessianKind::WarpedRestHessian: return std::make_unique<WarpedRestHessian>(objective);
  }
  return nullptr;
}

}  // namespace qnsim
