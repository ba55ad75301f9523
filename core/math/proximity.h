#pragma once
// Distances between the primitives of self-collision (core/collision/self_contacts.h): a point and a
// triangle, two segments, and the height of a point above a triangle's plane, with the gradients the
// contact energies need (SelfContactTerm in core/objective/objective.h).
#include "qnsim/types.h"

namespace qnsim {

using Vec12 = Eigen::Matrix<double, 12, 1>;

// Barycentric weights (w_a, w_b, w_c) of the point of triangle (a, b, c) closest to p (Ericson,
// Real-Time Collision Detection, Sec. 5.1.5). A triangle without area gives the closest point of its edges.
Vec3 closestPointWeights(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

// Parameters (s, t) in [0, 1]^2 of the closest points p0 + s (p1 - p0) and q0 + t (q1 - q0) of two
// segments (Ericson Sec. 5.1.9); s = 0 for parallel segments, whose closest points are not unique.
Vec2 closestSegmentParameters(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1);

// h = n . (p - a) with n = (b - a) x (c - a) / |(b - a) x (c - a)|: the height of p above the plane of
// the triangle, and its gradient w.r.t. (p, a, b, c) when asked. The triangle must have an area.
double planeHeight(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Vec12* gradient = nullptr);

// h = n . (p0 - q0) with n = (p1 - p0) x (q1 - q0) / |(p1 - p0) x (q1 - q0)|: the signed distance
// between the lines through two segments (their closest points' distance when both lie inside the
// segments), and its gradient w.r.t. (p0, p1, q0, q1) when asked. The lines must not be parallel.
double lineHeight(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec12* gradient = nullptr);

// d = |p(s) - q(t)| at the closest points of the segments p0 p1 and q0 q1, and its gradient w.r.t.
// (p0, p1, q0, q1): (1 - s) u, s u, -(1 - t) u, -t u with u the unit vector from q(t) to p(s), by the
// envelope theorem (exact where the closest points are unique; zero when the segments touch).
double segmentDistance(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec12* gradient = nullptr);
// The same, from the closest points' parameters st (closestSegmentParameters) already found.
double segmentDistance(const Vec2& st, const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec12* gradient = nullptr);

// Distance from p to the triangle (a, b, c), and its gradient w.r.t. (p, a, b, c) when asked: u,
// -w_a u, -w_b u, -w_c u with u the unit vector from the closest point (weights w) to p, by the
// envelope theorem as for segmentDistance.
double pointTriangleDistance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Vec12* gradient = nullptr);

// Does the segment p q cross the triangle (a, b, c)? Touching at an end or an edge counts.
bool segmentCrossesTriangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace qnsim
