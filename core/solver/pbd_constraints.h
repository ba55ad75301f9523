#pragma once
// The constraints of position-based FEM (the PBFE dissertation, Sec. 5.3) and their Gauss-Seidel updates.
//
// A constraint C(z) acts on the positions the energy sees, z = s x + o (s, o of the integrator's energy
// argument, core/sim/integrator.h; z = x for backward Euler). Its update is XPBD's (Macklin, Mueller
// and Chentanez 2016): for the energy c/(2 alpha) C^2 in g, with alpha~ = alpha w / c
// (w = 1/h^2 the inertia weight) and the multiplier lambda accumulated over the frame,
//   dlambda = -(C + alpha~ lambda) / (s^2 sum_a |dC/dz_a|^2 / m_a + alpha~),   x_a += s dC/dz_a dlambda / m_a.
// Were every gradient constant, a fixed point would have M (x - y) = sum s grad C lambda and
// C + alpha~ lambda = 0: the stationarity of g.
// With alpha~ = 0 and a stiffness k in [0, 1] the update is PBD's (the PBFE dissertation's Eq. 5.22 and Alg. 3),
//   dx_a = -k C s dC/dz_a / m_a / (s^2 sum_b |dC/dz_b|^2 / m_b),
// which knows no material: its stiffness depends on the iteration count and the mesh.
//
// Each update follows the constraint's gradient where it is visited; the sum of a constraint's updates
// over the sweeps therefore drifts from grad C(x) lambda at the end when the gradient turns (Macklin et
// al. drop this primal residual), and xpbd's fixed point misses g's stationary point by that drift.
#include <limits>

#include "core/model/model.h"
#include "qnsim/types.h"

namespace qnsim {

// How one constraint is enforced.
struct ConstraintWeight {
  double compliance = 0;  // alpha~; 0 = a hard constraint
  double stiffness = 1;   // PBD's k in [0, 1]; 1 with a compliance (XPBD)
  bool active() const { return stiffness > 0 && compliance < std::numeric_limits<double>::infinity(); }
};

// z = s x + o: the positions the energy sees.
struct EnergyArgument {
  double scale = 1.0;            // s
  const VecX* offset = nullptr;  // o; null when it is 0 (or s = 1, where it is unused)
  Vec3 at(const VecX& x, int v) const { return offset ? Vec3(scale * vertex(x, v) + vertex(*offset, v)) : Vec3(scale * vertex(x, v)); }
};

// The positions a sweep updates, with what every update needs.
struct PbdPositions {
  VecX& x;
  const VecX& inverse_mass;  // 1/m per vertex
  EnergyArgument argument;
  Vec3 z(int v) const { return argument.at(x, v); }
};

// The update of a scalar constraint with value C and gradients dC/dz_a of `count` vertices; lambda stays
// within [low, high] (an inequality, or a bounded force). Does nothing where the gradient vanishes.
void projectConstraint(PbdPositions& p, const int* vertices, const Vec3* gradient, int count, double C, const ConstraintWeight& weight,
                       double& lambda, double low = -std::numeric_limits<double>::infinity(),
                       double high = std::numeric_limits<double>::infinity());

// The co-rotational constraint C = |F - R|_F with dC/dF = (F - R) / C: the gradient of |F - R(F)| with R
// the polar rotation (R's own derivative drops out), which the rotation estimate approaches. 0 (and
// dC/dF = 0) at F = R.
double corotationalConstraint(const Mat3& F, const Mat3& R, Mat3& dC_dF);
// The volume constraint C = det F - 1 with dC/dF = cof F (= det F F^-T, defined for singular F too).
double volumeConstraint(const Mat3& F, Mat3& dC_dF);

// F = Ds Dm^-1 of tet e at the positions z(x) (the PBFE dissertation, Sec. 4; TetElements::deformationGradient on z).
Mat3 deformationGradient(const VecX& x, const EnergyArgument& z, const TetElements& tets, int e);
// A tet constraint's dC/dz of its four vertices from dC/dF: the columns of dC/dF Dm^-T, and minus their sum.
void tetGradient(const Mat3& dC_dF, const Mat3& rest_inverse, Vec3 (&gradient)[4]);

// A tet's co-rotational constraint |F - R|_F = 0 (R its rotation estimate; the PBFE dissertation's E_CR as one scalar).
void projectCorotational(PbdPositions& p, const TetElements& tets, int e, const Mat3& R, const ConstraintWeight& weight, double& lambda);
// A tet's volume constraint det F - 1 = 0 (the PBFE dissertation's Eq. 5.23).
void projectVolume(PbdPositions& p, const TetElements& tets, int e, const ConstraintWeight& weight, double& lambda);
// A spring's distance constraint C = |z1 - z2| - l0.
void projectDistance(PbdPositions& p, const Eigen::Vector2i& vertices, double rest_length, const ConstraintWeight& weight, double& lambda);
// A vertex's quadratic energy c/2 (z_v - t)^T K (z_v - t) (attachments, drags, wind) with K~ = c K / w, as
// the three constraints z_v - t with compliance K~^-1 and multiplier lambda (a 3-vector):
//   (I + s^2 K~ / m) dlambda = -(lambda + K~ (z_v - t)),   x_v += s dlambda / m,
// which also holds for a singular K (wind pushes along the normal only).
void projectVertexSpring(PbdPositions& p, int v, const Mat3& stiffness, const Vec3& target, Vec3& lambda);

}  // namespace qnsim
