#pragma once
// Implicit modelling with signed distance functions (negative inside). The shapes are built as smooth
// unions of a few primitives, so the combined field is only an approximate distance; that is all the
// mesher needs (it samples the sign and projects onto the zero set).
#include <functional>
#include <vector>

#include "qnsim/types.h"

namespace qnsim::assets {

using Sdf = std::function<double(const Vec3&)>;

Sdf sphere(const Vec3& center, double radius);
// Approximate (but sign-exact) ellipsoid distance with semi-axes `radii` along x, y, z.
Sdf ellipsoid(const Vec3& center, const Vec3& radii);
// Ellipsoid with its semi-axes along the columns of `axes` (an orthonormal frame).
Sdf orientedEllipsoid(const Vec3& center, const Mat3& axes, const Vec3& radii);
// A capsule whose radius varies linearly from ra at a to rb at b.
Sdf roundCone(const Vec3& a, const Vec3& b, double ra, double rb);
// A box with half extents `half` (rounding included) and corner radius `rounding`, axes = frame columns.
Sdf roundBox(const Vec3& center, const Mat3& axes, const Vec3& half, double rounding);
// A torus around the y axis: R from the axis to the tube centre, r the tube radius.
Sdf torusY(const Vec3& center, double major_radius, double minor_radius);

// Polynomial smooth minimum (Quilez): blends over a band of width k, equals min() outside it.
Sdf smoothUnion(std::vector<Sdf> parts, double k);
Sdf unite(std::vector<Sdf> parts);
Sdf smoothSubtract(Sdf base, Sdf cut, double k);
// Mirror a shape through the plane x = 0 and unite it with itself (left/right pairs of a face).
Sdf mirroredX(Sdf part);
// The same through the plane z = 0 (left/right pairs of an animal facing +x).
Sdf mirroredZ(Sdf part);

// Central-difference gradient with step h.
Vec3 gradient(const Sdf& f, const Vec3& p, double h);
// Newton steps along the gradient to the zero set; stops when |f| < tol.
Vec3 projectToSurface(const Sdf& f, Vec3 p, double h, double tol);

// A rotation about a unit axis by an angle in radians.
Mat3 rotation(const Vec3& axis, double angle);

}  // namespace qnsim::assets
