#pragma once
// Self-collisions: contacts of the simulated bodies with themselves and with each other (a cloth
// folding onto itself, a soft body folding over, brush bristles pressing on one another).
//
// Detection is a uniform grid of boxes (box_grid.h) over the collision primitives: surface vertices against
// triangles (cloth triangles and the boundary faces of tet bodies), and strand segments against strand
// segments (strands have no triangles: edge-edge proximity is what keeps them from passing through one
// another). A primitive's box spans its positions over the frame so far, from the frame's start to the
// current iterate, so a vertex that crossed a triangle within the frame is found. The response is
// SelfContactTerms (objective.h), penalties in g and grad g but never in A, refreshed with the collider
// contacts at the start of the frame and of every iteration (frame_solver.h), as in Sec. 4.3.
//
// A vertex is kept on one side of a triangle: for a cloth triangle the side it was on at the start of
// the frame, for a face of a tet body the outside. The pair is a term while the vertex is less than
// twice the thickness above the triangle's plane on that side and its projection on the plane lies
// within the thickness of the triangle; the term pushes while the vertex is less than the thickness
// above. Two strand segments are a term while they are closer than twice the sum of their radii, and
// push while closer than the sum; while their closest points lie inside both, they too are kept on
// the side of each other they started the frame on. Pairs of one body that are that close at rest are
// neighbours, never terms.
#include <optional>
#include <vector>

#include "core/collision/box_grid.h"
#include "core/objective/objective.h"
#include "qnsim/settings.h"

namespace qnsim {

struct SelfContactParams {
  double thickness;  // vertex-triangle contact distance (m)
  double stiffness;  // k of the penalty (N/m)
};
inline SelfContactParams selfContactParams(const Settings& s) { return {s.self_collision.thickness, s.self_collision.stiffness}; }

// What collides, in global vertex indices; built once per model.
struct CollisionPrimitives {
  std::vector<int> vertices;    // of surfaces and strands, increasing
  TriIndices triangles;         // cloth triangles and tet boundary faces
  std::vector<char> two_sided;  // per triangle: 1 for a cloth's (either side), 0 for a tet face (outside only)
  EdgeIndices segments;         // strand segments
  std::vector<double> radius;   // per segment: its strand's radius
  std::vector<int> body;        // per model vertex: the body it belongs to
  VecX rest;                    // the model's rest positions, for the neighbour rule
};
CollisionPrimitives collisionPrimitives(const Model& model);
// The triangles' edges, each once (lower index first), in increasing order.
EdgeIndices triangleEdges(const CollisionPrimitives& p);

// The narrow phase: the term of surface vertex v against triangle f at positions x, with start-of-frame
// positions `start`, or of segments i and j; nothing when the pair is not a term.
std::optional<SelfContactTerm> vertexTriangleTerm(const CollisionPrimitives& p, int v, int f, const VecX& x, const VecX& start,
                                                  const SelfContactParams& params);
std::optional<SelfContactTerm> segmentTerm(const CollisionPrimitives& p, int i, int j, const VecX& x, const VecX& start,
                                           const SelfContactParams& params);

// The broad phase's boxes over the frame so far; a pair can be a term only if its boxes overlap.
Aabb vertexBox(int v, const VecX& x, const VecX& start, const SelfContactParams& params);
Aabb triangleBox(const CollisionPrimitives& p, int f, const VecX& x, const VecX& start);
Aabb segmentBox(const CollisionPrimitives& p, int i, const VecX& x, const VecX& start);

class SelfCollision {
 public:
  explicit SelfCollision(const Model& model);
  const CollisionPrimitives& primitives() const { return primitives_; }

  // The terms at x: every vertex-triangle pair (by vertex, then triangle) and segment pair (i < j)
  // whose boxes overlap and whose narrow phase gives a term. Deterministic for any thread count.
  void findTerms(const VecX& x, const VecX& start, const SelfContactParams& params, std::vector<SelfContactTerm>& terms);
  // Replaces objective.self_contacts by the terms at x. Returns true when g(x) changed: when the pairs
  // that push at x changed (the caller then re-evaluates g and restarts its L-BFGS history).
  bool refresh(const VecX& x, const VecX& start, const SelfContactParams& params, Objective& objective);

  // Edges of the triangles that cross a triangle they share no vertex with, at x: 0 for surfaces that
  // do not intersect themselves or each other.
  int intersections(const VecX& x);

 private:
  template <class Body>
  void forEachChunk(Body body);
  void findCandidates(const VecX& x, const VecX& start, const SelfContactParams& params);
  bool candidatesHold(const VecX& x, const VecX& start, const SelfContactParams& params) const;

  CollisionPrimitives primitives_;
  EdgeIndices edges_;  // the triangles' edges, each once
  BoxGrid triangle_grid_, segment_grid_;
  std::vector<Aabb> triangle_boxes_, segment_boxes_;
  // Per chunk of query primitives: their candidates (each list after its length), and the terms found.
  std::vector<std::vector<int>> chunk_candidates_;
  std::vector<std::vector<SelfContactTerm>> chunk_terms_;
  VecX candidates_at_, candidates_start_;  // where the candidates were found
  SelfContactParams candidates_params_{};
  double padding_ = 0;
  std::vector<Eigen::Vector4i> pushing_before_, pushing_after_;
};

// Telemetry: the terms that push at x and the deepest of them (-gap: for a vertex the thickness minus
// its height above the triangle, so more than the thickness means it is through the triangle).
struct SelfContactStats {
  int pushing = 0;
  double max_penetration = 0;
};
SelfContactStats measureSelfContacts(const std::vector<SelfContactTerm>& terms, const VecX& x);

}  // namespace qnsim
