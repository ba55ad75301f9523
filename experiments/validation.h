#pragma once
// The physics against theory (docs/validation.md): bars of tets in SI units, their static and dynamic
// responses measured with qnsim's own Simulation, beside the closed forms of beam theory. The tests run
// the small meshes; `qnsim experiment validation` runs three sizes of each and draws the figure.
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "qnsim/scene.h"

namespace qnsim {

// A bar of length L along x (height h along y, width b along z), centred at the origin; `cells` cubes
// across its height and width and L / h times as many along it (makeBox: five tets per cube).
struct Bar {
  double length = 1.0, height = 0.1, width = 0.1;  // m
  int cells = 2;
  double young = 1.5e8, poisson = 0.3, density = 1000.0;  // Pa, 1, kg/m^3
  std::string model = "corotated";
  int lengthCells() const;
  double area() const { return height * width; }
  double inertia() const { return width * height * height * height / 12.0; }  // I about the bending (z) axis
  double shearModulus() const { return young / (2.0 * (1.0 + poisson)); }
};

// Beam theory (Timoshenko and Goodier; Timoshenko and Gere), L, E, I, G, A of the bar:
// a cantilever under its own weight w = rho g A per length: w L^4 / (8 E I) + w L^2 / (2 kappa G A), the
// second the shear term of Timoshenko's beam with kappa = 5/6 for a rectangle.
double cantileverSelfWeightDeflection(const Bar& bar, double gravity);
// Its first bending frequency (Hz), Euler-Bernoulli: (beta L)^2 / (2 pi L^2) sqrt(E I / (rho A)), beta L = 1.87510.
double cantileverFirstFrequency(const Bar& bar);
// A bar hanging under its own weight stretches by rho g L^2 / (2 E) (Saint-Venant's solution).
double hangingBarStretch(const Bar& bar, double gravity);
// Saint-Venant torsion of a rectangle a x b (a >= b): T = beta a b^3 G theta / L with
// beta = 1/3 (1 - 192/pi^5 (b/a) sum_{n odd} tanh(n pi a / (2 b)) / n^5); 0.1406 for a square.
double saintVenantTorque(const Bar& bar, double twist);
// The Euler elastica of a cantilever with a dead tip load P (Bisshopp and Drucker 1945), solved by
// shooting on theta'' = -alpha cos theta, theta(0) = 0, theta'(1) = 0, alpha = P L^2 / (E I): the tip's
// deflection across (down) and along (shortening) the bar, both over L.
struct ElasticaTip {
  double across, along, angle;  // angle: the tip's slope (rad)
};
ElasticaTip elasticaTip(double alpha);

// The bar's scene: clamped at x = -L/2 by stiff attachment springs on that face (`clamped`), a material
// from E and nu (lameFromYoung), the given settings on top of those of the static solve below.
Scene barScene(const Bar& bar, bool clamped, const Vec3& gravity);

// Measurements, each on a fresh simulation of the bar. Static ones run backward Euler frames of 1 s
// with all velocity removed before each (damping = 1), each solved by Newton's method to convergence:
// a proximal-point iteration whose fixed point is the static equilibrium, run until it stops moving.
// The tip face's mean downward displacement of the cantilever under its own weight (m).
double cantileverDeflection(const Bar& bar, double gravity = 9.81);
// The tip face's mean displacement (down, along the bar towards the clamp, over L) under a dead load P
// spread over the tip face's vertices, each a drag towards a target 10^6 L below (force k (target - x),
// nearly constant); no gravity.
ElasticaTip tipLoadDeflection(const Bar& bar, double load);
// The bar hung by its end face (x = -L/2, gravity along +x, away from it): its free face's mean
// displacement along x (m).
double hangingStretch(const Bar& bar, double gravity = 9.81);
// The torque (N m) the end face held at x = +L/2, turned by `twist` (rad) about the bar's axis, needs
// while the other end is held, from the attachment forces; and the twist the faces reached.
struct TorsionResult {
  double torque, twist;
};
TorsionResult twistedBarTorque(const Bar& bar, double twist);
// The cantilever released from its static shape under gravity with gravity off, integrated by implicit
// midpoint with `steps_per_period` steps per period of the theory: the tip's mean vertical
// displacement after each step and the frequency (Hz) from its zero crossings.
struct Oscillation {
  std::vector<double> time, tip;
  double frequency;
};
Oscillation cantileverOscillation(const Bar& bar, int periods, int steps_per_period);
// A bar hinged at one end (the vertices of its left face on the axis) swinging down from horizontal,
// with no damping: total energy (kinetic, gravitational, elastic, attachment) after each frame.
std::vector<double> swingingBarEnergy(const Bar& bar, const std::string& integrator, int frames, double time_step);

// Richardson's extrapolation of three values at mesh sizes h0 > h1 > h2 to h = 0, assuming
// v(h) = v0 + C h^p; p found from the three values (bisection). Returns v0 (NaN when not monotone).
double extrapolateToZero(const double h[3], const double v[3]);

ExperimentReport validation(const ExperimentOptions& options);

}  // namespace qnsim
