#pragma once
// The backward Euler objective (paper Eq. 3):
//   g(x) = w/2 (x - y)^T M (x - y) + E(x),   w = 1/h^2,
// with E the elastic energy of the tets and springs not removed (removal.h), attachment springs, and the
// terms that stay out of A = w M + L: contacts (Sec. 4.3) with colliders and between the bodies' own
// surfaces, the optional friction of collider contacts, and drag springs; optionally also
// stiffness-proportional damping, whose Hessian A bounds. Energy and gradient come from one streaming
// pass. Other integrators evaluate c E(s x + o) instead of E(x) (see core/sim/integrator.h).
#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

#include "core/math/proximity.h"
#include "core/model/model.h"
#include "core/objective/corner_targets.h"
#include "core/objective/element_hessian.h"
#include "core/objective/tet_kernels.h"
#include "qnsim/state.h"
#include "qnsim/telemetry.h"

namespace qnsim {

// k/2 min(0, (x_v - point) . normal)^2: pushes a penetrating vertex to the collider's tangent plane.
// One-sided, so a vertex above the plane feels nothing: the paper's term while in collision, and never
// glue, even within a line search whose trial point crosses the plane.
struct ContactTerm {
  int vertex;
  Vec3 point, normal;
  double stiffness;
  // Height of the vertex above the tangent plane at positions x; the term pushes where it is < 0.
  double gap(const VecX& x) const { return (qnsim::vertex(x, vertex) - point).dot(normal); }
};

// A vertex's stiffness along one direction: the contact barrier's curvature (Objective::barrier_curvature),
// up to three entries per vertex with orthonormal directions.
struct NormalStiffness {
  int vertex;
  Vec3 normal;
  double stiffness;
};

// k/2 min(0, gap)^2 on four vertices: a self-collision (core/collision/self_contacts.h).
// VertexTriangle: vertices (v, a, b, c), gap = side h - thickness with h the height of x_v above the
// plane of the triangle (a, b, c) (planeHeight) and side = +1 or -1 the side the vertex is kept on; the
// plane moves with the triangle, so the force acts on all four vertices. Segments: vertices (p0, p1,
// q0, q1) of two strand segments, gap = side h - thickness with h the signed distance of their lines
// (lineHeight) and side the side they are kept on, or with side = 0 gap = their distance (at the
// closest points) - thickness. One-sided like ContactTerm: no force once the gap is positive, so it
// never glues.
struct SelfContactTerm {
  enum class Kind { VertexTriangle, Segments };
  Kind kind;
  Eigen::Vector4i vertices;
  double side, thickness, stiffness;
  // The gap at positions x and, when asked, its gradient w.r.t. the four vertices in order.
  double gap(const VecX& x, Vec12* gradient = nullptr) const {
    const Vec3 p = vertex(x, vertices[0]), a = vertex(x, vertices[1]), b = vertex(x, vertices[2]), c = vertex(x, vertices[3]);
    if (kind == Kind::Segments && side == 0) return segmentDistance(p, a, b, c, gradient) - thickness;
    const double h = kind == Kind::Segments ? lineHeight(p, a, b, c, gradient) : planeHeight(p, a, b, c, gradient);
    if (gradient) *gradient *= side;
    return side * h - thickness;
  }
};

// Optional friction of a contact: bound * H(|P (x_v - anchor)|) with P = I - n n^T and H the Huber
// function of width `slip` (u^2 / (2 slip) below it, u - slip/2 above), so the force opposes the
// tangential slip from `anchor` and is at most `bound` (the friction coefficient times the normal force).
struct FrictionTerm {
  int vertex;
  Vec3 anchor, normal;
  double bound, slip;
  // The term's gradient and Hessian at the vertex's position x.
  Vec3 gradient(const Vec3& x) const {
    const Vec3 s = (x - anchor) - (x - anchor).dot(normal) * normal;
    return bound / std::max(s.norm(), slip) * s;
  }
  Mat3 hessian(const Vec3& x) const;  // hessian.cpp
};

// 1/2 (x_v - target)^T K (x_v - target): the air drag of wind.h on one surface vertex, with K and the
// target fixed for the frame. Dissipative like friction: it acts on x itself, not in A.
struct WindTerm {
  int vertex;
  Mat3 stiffness;
  Vec3 target;
};

// Stiffness-proportional damping (core/sim/damping.h): weight/2 sum_e |S_e|_e^2 over the elements' strains in
// the step, measured in each element's own frame so that turning is no strain: for a tet
// S = sym(R^T G x) - sym(R_n^T G anchor), R_n its rotation at the step's start and R = R_n turned on at the
// rate it turned then, over the time that maps a velocity to x - anchor (setDampingFrames); for a spring,
// (x_i - x_j) . u - (anchor_i - anchor_j) . u_n along its direction turned likewise. |.|_e is the norm of
// L_e's term of the element: V k |S|^2 (+ V kappa (d^T S d)^2 with a fibre d), k s^2. The symmetric part and
// the projections only shrink that norm, so the Hessian is at most weight L_e, which A holds
// (system_matrix.h): A bounds it as it bounds PD energies.
struct MaterialDamping {
  double weight = 0.0;           // 0 = none
  VecX anchor;                   // x^ of integrator.h
  std::vector<Mat3> frames;      // per tet: R; set (and sized) by setDampingFrames
  std::vector<Mat3> origins;     // per tet: sym(R_n^T G anchor)
  std::vector<Vec3> directions;  // per spring: u (zero for a spring of no length)
  std::vector<double> lengths;   // per spring: (anchor_i - anchor_j) . u_n
  bool active() const { return weight > 0 && frames.size() + directions.size() > 0; }
};

class Objective {
 public:
  explicit Objective(const Model& model);

  // The inertial target y and the weight w of the inertia term (1/h^2 for backward Euler).
  void setInertia(const VecX& y, double weight);
  const VecX& inertiaTarget() const { return y_; }
  double inertiaWeight() const { return inertia_weight_; }

  // The potential energy enters g as c E(s x + o); c = s = 1 (backward Euler) by default.
  void setEnergyTransform(double scale, double argument_scale, const VecX& offset);
  double energyScale() const { return energy_scale_; }
  double argumentScale() const { return argument_scale_; }
  const VecX& energyOffset() const { return offset_; }  // o (used only when s != 1)

  std::vector<ContactTerm> contacts;
  std::vector<SelfContactTerm> self_contacts;
  std::vector<FrictionTerm> frictions;
  std::vector<Drag> drags;  // k/2 |x_v - target|^2, not part of A (qnsim/state.h)
  std::vector<WindTerm> winds;
  MaterialDamping damping;
  // An energy kept outside this layer, the contact barrier of core/collision/barrier.h: its value at x,
  // adding its gradient to `gradient` when given. Not in A, like the contacts.
  std::function<double(const VecX& x, VecX* gradient)> barrier;
  // Its curvature at x, up to three directions per vertex, stiffest first (ContactBarrier::normalStiffness),
  // for the initial Hessian of ours to see (initial_hessian.h); unset or empty when nothing is within reach.
  std::function<void(const VecX& x, std::vector<NormalStiffness>& out)> barrier_curvature;

  // The damping term's element frames from the step's start x (each tet's rotation, each spring's
  // direction), turned on at their rates under velocity v for `time` (h/a of integrator.h), and its origins
  // from damping.anchor.
  void setDampingFrames(const VecX& x, const VecX& v, double time);

  // g(x); also writes the gradient when `gradient` is given (same pass) and the parts when asked.
  double evaluate(const VecX& x, VecX* gradient, EnergyParts* parts = nullptr);

  // g(x) now and its gradient later: the tets' stresses are kept, and completeGradient(x, gradient),
  // called with the same x before any other evaluation, writes the gradient that evaluate(x, &gradient)
  // would have, bit for bit. A backtracking line search's rejected trials then cost no gradient.
  double evaluateDeferringGradient(const VecX& x, EnergyParts* parts = nullptr);
  void completeGradient(const VecX& x, VecX& gradient);
  // The damping term's share seen from one vertex (vertex_blocks.h): tet e's energy, gradient for its
  // vertex a and that vertex's Hessian block; a spring's for its end (0 or 1).
  TetVertexTerms dampingTetVertexTerms(const VecX& x, int e, int a) const;
  TetVertexTerms dampingSpringTerms(const VecX& x, int s, int end) const;

  // Each tet's first Piola-Kirchhoff stress P (fibre included) at the energy argument of the last
  // evaluateDeferringGradient (ADMM's global step reads them).
  const std::vector<Mat3>& tetStresses() const { return tet_stress_; }

  // The Hessian of g (3n x 3n, full symmetric storage), every element block made positive semidefinite
  // by `filter` (element_hessian.h): clamped, the nearest such matrix (Teran et al. 2005), or with its
  // negative eigenvalues' absolute values (Chen et al. 2024). The sparsity pattern is fixed for the
  // model; contacts and drags only touch diagonal blocks, and self-contacts (which couple four vertices)
  // add only their diagonal Gauss-Newton blocks.
  const SparseMatrix& hessian(const VecX& x, EigenvalueFilter filter);
  const SparseMatrix& hessian(const VecX& x, bool project) { return hessian(x, project ? EigenvalueFilter::Clamp : EigenvalueFilter::None); }

  const Model& model() const { return model_; }

 private:
  // What a pass over the tets leaves per tet besides its energy: nothing, its stress, or its forces.
  enum class TetOutput { Energy, Stress, Forces };
  const VecX& energyArgument(const VecX& x);  // x itself, or s x + o
  void evaluateElements(const VecX& x, TetOutput output);
  double assemble(const VecX& x, bool energies, EnergyParts* parts, VecX* gradient);
  void evaluateTets(const VecX& x, TetOutput output);
  void evaluateTetRun(const VecX& x, int first, int last, TetOutput output, double* force = nullptr, int force_first = 0);
  template <class Run>
  void forEachTetRun(int begin, int end, double* force, const Run& run);
  // The tets' corner forces into the gradient's accumulators and slots (corner_targets.h): make(first,
  // last, force) writes those of tets [first, last) at force + 12 (e - first).
  template <class Make>
  void addTetForces(const Make& make);
  void addCorners(int first, int last, const double* force);
  const CornerTargets& cornerTargets();
  // Which pass takes each region's tets: a vector kernel (tet_kernels.h) for a region without fibres
  // on a CPU with AVX2 and FMA, Neo-Hookean or with a strain-polynomial form; else the material's own.
  // Chosen at the start of each pass over the tets (materials change between frames).
  enum class TetKernel : char { General, NeoHookean, StrainPolynomial };
  void chooseTetKernels();
  // Runs of tets split where this changes: the region, except that the strain-polynomial kernel takes
  // all its regions together.
  int runKey(int region) const { return tet_kernel_[region] == TetKernel::StrainPolynomial ? -1 : region; }
  TetGeometry tetGeometry() const;
  NeoHookeanTets neoHookeanTets(int region) const;
  void strainPolynomialRun(const VecX& x, int first, int last, TetOutput output, const TetPassOutput& out);
  void evaluateTet(const VecX& x, int e, TetOutput output, const TetPassOutput& out);
  void forcesFromStresses();
  void evaluateSprings(const VecX& x);
  void evaluateDamping(const VecX& x, bool with_gradient);
  Eigen::Matrix<double, 12, 12> dampingTetHessian(int e) const;
  Mat3 dampingStress(const VecX& x, int e, double& energy) const;
  void dampingDirections(int e, int a, Mat3* B, double* stretch) const;
  void buildHessianPattern();

  const Model& model_;
  VecX y_;
  double inertia_weight_ = 0.0;
  double energy_scale_ = 1.0, argument_scale_ = 1.0;
  VecX offset_, argument_;
  // Per-element results, gathered per vertex through `incidence_` (CSR) so that the sums never race
  // and do not depend on the thread count; the tets' corners of a vertex that one part owns are added
  // into its accumulator instead, in the same order (corner_targets_).
  std::vector<double> element_energy_;
  // 4 per tet, then 1 per spring (on its first vertex; minus it on the second), then 1 per vertex (its
  // accumulator, meaningful where owned)
  std::vector<Vec3> element_force_;
  CornerTargets corner_targets_;
  std::vector<char> spring_vertex_;  // per vertex: a spring touches it (never owned)
  std::vector<Mat3> tet_stress_;     // per tet: P, kept by evaluateDeferringGradient
  std::vector<int> incidence_start_, incidence_subtracted_, incidence_slot_;
  std::vector<double> vertex_energy_;
  std::vector<double> damping_energy_;  // per element, as element_energy_
  std::vector<Vec3> damping_force_;     // per element slot, as element_force_
  std::vector<double> region_stiffness_;  // k of each region, for the spring kernel
  std::vector<TetKernel> tet_kernel_;          // per region (chooseTetKernels)
  std::vector<StrainPolynomial> strain_forms_;  // per region: its form, or zero for other kernels
  // The sum of the element forces on vertex v (force: per slot, as element_force_), gathered.
  Vec3 vertexForce(const std::vector<Vec3>& force, int v) const {
    Vec3 sum = Vec3::Zero();
    for (int i = incidence_start_[v]; i < incidence_subtracted_[v]; ++i) sum += force[incidence_slot_[i]];
    for (int i = incidence_subtracted_[v]; i < incidence_start_[v + 1]; ++i) sum -= force[incidence_slot_[i]];
    return sum;
  }
  // Hessian storage and, per element vertex pair and column, the index of the block's first entry.
  SparseMatrix hessian_;
  std::vector<int> tet_block_index_, spring_block_index_, diagonal_block_index_;
  std::vector<Eigen::Matrix<double, 12, 12>> tet_hessian_;
};

}  // namespace qnsim
