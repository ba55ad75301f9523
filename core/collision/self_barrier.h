#pragma once
// Self-contact under the barrier (contact.model=barrier with self_collision.enabled): IPC's barrier
// b(d) (barrier.h, Li et al. 2020) on the unsigned distance of every surface vertex to every triangle
// it is not a corner of, of every two edges that share no vertex (the triangles' edges and the
// strands' segments), and of every strand vertex to every strand segment it is not an end of, so that
// no cloth, tet surface or strand passes through itself or another. As in IPC (Sec. 4.2), an edge-edge
// term is multiplied by the mollifier
//   m(c) = (2 - c / eps) c / eps for c < eps, 1 beyond,   c = |e0 x e1|^2,  eps = 1e-3 |e0|^2 |e1|^2 at rest,
// which takes it smoothly to zero as the edges turn parallel, where their distance is not smooth. What
// holds such edges apart is a point term: a vertex against the other edge's triangles on surfaces, and
// on strands, which have no triangles, the vertex-segment terms (as in codimensional IPC, Li et al.
// 2021); without them parallel bristles met with nothing but collision detection between them, closed
// in to its 1e-9 m floor and stopped every step. Strands meet at their centre lines: their radius is
// not part of d. Pairs already touching when a frame starts (d <= 1e-9 m: a scene that starts
// intersecting, or penalties switched to the barrier on a tangled state) are left out for that frame,
// so that they cannot stop every step; stats counts them.
//
// Broad phase (as IPC's): the grid of box_grid.h over the primitives' boxes swept along a line-search
// step (less its mean motion: a cloth falling as a whole sweeps no pair into another) and grown by
// 2 d^. Those candidates serve the step's collision detection and every trial of its line search, and
// are found again, at a point or along the next step, when positions leave their reach: filtered from
// a wider search's (grown by 4 d^ more) while positions stay within its reach, as a Verlet list, and
// where a few vertices stray from it, completed by a search for their pairs alone
// (self_barrier_candidates.cpp).
// Deterministic for any thread count: pairs are found per chunk of primitives and summed in order. Not
// to be called from several threads at once (the candidates are cached).
#include <array>
#include <tuple>
#include <vector>

#include "core/collision/barrier.h"
#include "core/collision/self_contacts.h"
#include "core/math/proximity.h"

namespace qnsim {

struct CcdOptions;

class SelfBarrier {
 public:
  explicit SelfBarrier(const CollisionPrimitives& primitives);

  // The frame's reach d^ (m) and its start positions, which set the pairs left out (above).
  void beginFrame(const VecX& start, double dhat);
  // kappa sum of the (mollified) b(d) over the pairs within d^ at x; adds its gradient when asked.
  double energy(const VecX& x, double kappa, VecX* gradient) const;
  // The largest alpha in [0, max_alpha] such that no pair meets on x + [0, alpha] d (additive CCD, ccd.h),
  // or with `clearance` > 0, comes closer than it; a pair that close at x already may close in by a
  // tenth of its distance there (a body resting on another within the clearance can still slide).
  double stepBound(const VecX& x, const VecX& d, double max_alpha, double clearance = 0.0) const;
  BarrierStats stats(const VecX& x) const;
  // The pairs within d^ at x in ours' initial Hessian (initial_hessian.cpp): adds the diagonal blocks
  // of the Gauss-Newton part of each pair's barrier Hessian, kappa m b''(d) g_k g_k^T for each corner k
  // (g_k its part of grad d), to `blocks` (one per model vertex), appending to `touched` each vertex
  // whose block was zero.
  void addCurvature(const VecX& x, double kappa, std::vector<Mat3>& blocks, std::vector<int>& touched) const;
  // Collision detection for a method that moves vertices without a line search (VBD, Jacobi,
  // position-based FEM): each vertex's move from x by d cut by its own factor, written back into d, so
  // that no pair meets on the motion x + [0, 1] d. A pair collision detection finds meeting cuts its
  // corners' moves to its time of impact; that changes the motion other pairs see, so it is checked
  // again, and after kCutRounds rounds the corners of pairs still meeting stand still (a pair whose
  // corners all stand still cannot meet): vertices far from any contact keep their whole move, where
  // one bound for all would stop the whole body at the first contact. With `clearance` > 0, pairs
  // count as meeting at that distance (a pair closer at x cannot move). Returns the smallest factor.
  double limitMoves(const VecX& x, VecX& d, double clearance = 0.0) const;
  // The frame's start: each pair closer than `target` at x moved apart to it, to first order (each
  // corner along its part g_k of grad d by (target - d) g_k / |grad d|^2, summed over a vertex's pairs).
  // A pair the last frame left at collision detection's floor would otherwise cut every step of this
  // one to nothing: the march that bounds a step can advance only by the gap above the floor.
  VecX separation(const VecX& x, double target) const;
  // The frame's start direction d without the first-order approach of the pairs within d^ at x whose
  // closest points lie inside both primitives and that are not two edges near parallel (the others,
  // such as a vertex beside a triangle's edge, lie farther than a pair inside on a smooth surface, and
  // their approach is a slide along it; two such edges' terms the mollifier takes out): a pair
  // whose distance shrinks along d (rate grad d . d < 0) has that rate taken out along its corners'
  // parts g_k of grad d, each in proportion to its vertex's `mobility` (inverse mass; 0 holds a vertex,
  // as a handle does), pair after pair in order, kApproachSweeps times (pairs share corners). A body
  // resting on another then slides along it, where the start's bound would stop the whole start at x.
  VecX withoutApproach(const VecX& x, VecX d, const VecX& mobility) const;
  // What self-contact friction needs of the surfaces each vertex touches at x (the pairs within d^):
  // the barrier's force on the vertex (kappa, summed over its pairs), whose direction is the contact's
  // normal, and the velocity, under v, of what it touches (each pair's other side at its closest point,
  // the pairs weighted by their force on the vertex). One entry per touching vertex, in vertex order.
  struct Touch {
    int vertex;
    Vec3 force, other_velocity;
  };
  std::vector<Touch> touches(const VecX& x, const VecX& v, double kappa) const;
  int leftOut() const { return static_cast<int>(touching_.size()); }  // pairs touching at the frame's start

  // A pair of primitives: a surface vertex (index into the model) and a triangle, two edges (indices
  // into edges()), or a strand vertex (index into the model) and a strand segment (index into edges()).
  enum class Kind : char { VertexTriangle, EdgeEdge, VertexSegment };
  struct Pair {
    Kind kind;
    int a, b;
  };
  const EdgeIndices& edges() const { return edges_; }
  // The pairs whose boxes overlap: within d^ (sweep = nullptr) or on the step x + [0, 1] sweep.
  std::vector<Pair> candidates(const VecX& x, const VecX* sweep, double grow) const;
  // Distance of a pair at x, and kappa times the gradient of its (mollified) barrier when asked.
  double distance(const Pair& pair, const VecX& x) const;

 private:
  // The model vertices of a pair's points, and the points at x as two segments' ends or a point and a
  // triangle: a vertex-segment pair is the segment (p, p) against the other, its second corner -1.
  Eigen::Vector4i corners(const Pair& pair) const;
  std::array<Vec3, 4> points(const Pair& pair, const VecX& x) const;
  double pairDistance(const Pair& pair, const std::array<Vec3, 4>& at, Vec12* gradient = nullptr) const;
  // False where the pair's points are surely `reach` apart or more (their boxes are), cheaply.
  bool mayBeWithin(const Pair& pair, const std::array<Vec3, 4>& at, double reach) const;
  double mollifierEps(const Pair& pair) const;             // eps of two edges' mollifier (above)
  bool mollified(const Pair& pair, const VecX& x) const;  // two edges near parallel, m(c) < 1
  double term(const Pair& pair, const VecX& x, double kappa, Eigen::Matrix<double, 12, 1>* gradient) const;
  // Collision detection's time of impact of a pair moving from x by sweep (ccd.h).
  double impact(const Pair& pair, const VecX& x, const VecX& sweep, const CcdOptions& options) const;
  bool leftOutPair(const Pair& pair) const;
  // The pairs that may be within d^ at x: the cached candidates (below), found again at x when they
  // do not cover it.
  const std::vector<Pair>& near(const VecX& x) const;
  struct Candidates;
  bool covers(const VecX& z) const;
  bool covers(const Candidates& path, const VecX& z, double pad) const;
  double offPath(const Candidates& path, const VecX& z) const;
  void cover(const VecX& from, const VecX& sweep) const;
  int markStrayed(const Candidates& path, const VecX& from, const VecX& sweep, double limit) const;
  bool hasStrayedCorner(const Pair& pair) const;
  bool counted(const Pair& pair) const;
  std::vector<Pair> strayedCandidates(double grow) const;
  void sweptBoxes(const VecX& x, const VecX* sweep, double grow) const;
  std::vector<Pair> within(const std::vector<Pair>& pairs, const VecX& x, const VecX& sweep, double grow, bool skip_strayed) const;
  VecX withoutMeanMotion(VecX displacement) const;  // on the primitives' vertices

  static constexpr int kGrain = 128;  // primitives or pairs per parallel chunk

  const CollisionPrimitives& primitives_;
  EdgeIndices edges_;                 // the triangles' edges, each once, then the strands' segments
  int first_segment_ = 0;             // edges_' first strand segment
  std::vector<int> strand_vertices_;  // the segments' vertices, increasing
  std::vector<double> rest_length2_;  // per edge: its squared length at rest (the mollifier's eps)
  double dhat_ = 0;
  std::vector<std::tuple<Kind, int, int>> touching_;  // the left-out pairs, sorted
  // The pairs within (1 + kPad) d^ of each other somewhere on the path from + [0, 1] sweep (the last
  // line-search step bounded, or a point), which hold every pair within d^ at positions near that path.
  struct Candidates {
    bool valid = false;
    VecX from, sweep;
    std::vector<Pair> pairs;
  };
  mutable Candidates cache_;
  // Where cache_ is filtered from (cover): the pairs within (1 + kPad + kOuterPad) d^ along a path.
  struct Wider {
    Candidates list;
    int served = 2;  // paths its list has covered (2 before the first, so that the first is wide)
    int plain = 0;   // searches without the wider reach since a list served only one path
  };
  mutable Wider wider_;
  mutable std::vector<Aabb> vertex_boxes_, triangle_boxes_, edge_boxes_;  // candidates' scratch, kept for its memory
  mutable std::vector<double> off_path_;  // offPath's, per primitive vertex
  mutable std::vector<char> strayed_;     // markStrayed's, per model vertex
  mutable BoxGrid triangle_grid_, edge_grid_;
};

}  // namespace qnsim
