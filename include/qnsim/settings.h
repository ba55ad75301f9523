#pragma once
// Simulation settings. The values are declared (key, default, range, description) only once, in the
// parameter registry (parameters.cpp); a default-constructed Settings holds the registry's defaults.
#include "qnsim/types.h"

namespace qnsim {

enum class SolverMethod { QuasiNewton, ProjectiveDynamics, Newton, GradientDescent, Chebyshev, Hecht, Pbd, Xpbd, NewtonAbsolute, Vbd, Anderson, Jacobi, Admm };
enum class PbdSweep { Colored, Sequential };
enum class RotationUpdate { Projection, Frame };
enum class LineSearchKind { Armijo, None, Wolfe, Interpolate };
enum class IntegratorKind { BackwardEuler, ImplicitMidpoint, Bdf2 };
enum class DampingModel { Ether, RigidModes };
enum class LinearSolverKind { Direct, ConjugateGradient, IndefiniteCg };
enum class CgPreconditionerKind { Jacobi, IcholA, IcholRestHessian };
enum class InitialHessianKind { Laplacian, ScaledIdentity, RestHessian, FrameHessian, WarpedRestHessian };
enum class RemovalMatrix { Keep, Refactor };
enum class InitialGuess { Inertia, Adaptive, Previous };
enum class ContactModel { Penalty, Barrier };

// Position-based FEM (solver.method=pbd or xpbd; core/solver/pbd_solver.h).
struct PbdSettings {
  double corotational_stiffness;  // PBD's k in [0, 1] of the tets' |F - R| constraints
  double volume_stiffness;        // of the tets' det F - 1 constraints
  double spring_stiffness;        // of the springs' distance constraints
  PbdSweep sweep;                 // graph-coloured (parallel) or sequential Gauss-Seidel
  RotationUpdate rotation_update;  // refine each tet's rotation before each of its projections, or once per frame
  int rotation_iterations;         // of the rotation estimate per update
  bool trace;                     // evaluate g after every sweep for the telemetry
  bool operator==(const PbdSettings&) const = default;
};

struct SolverSettings {
  SolverMethod method;
  int iterations;           // per frame (paper: 10)
  int lbfgs_window;         // m of Alg. 2 (paper: 5); 0 = the plain quasi-Newton direction
  InitialHessianKind initial_hessian;  // A0 of Alg. 2 (paper: M/h^2 + L)
  LineSearchKind line_search;
  double armijo_gamma;      // sufficient-decrease constant (paper: 0.3)
  double armijo_beta;       // backtracking factor (paper: 0.5)
  double wolfe_gamma2;      // curvature constant of the strong Wolfe conditions (solver.line_search=wolfe)
  int max_backtracks;       // cap on halvings per line search
  Vec2 stiffness_interval;  // [x_start, x_end] of Eq. 11 (paper: [0.5, 1.5])
  double gradient_tolerance;  // stop a frame early when |grad g| <= this * |grad g(y)|; 0 = never
  double time_limit_ms;       // stop a frame's iterations once its solve has taken this long (ms); 0 = never
  LinearSolverKind linear_solver;  // of Newton's and our solves (Figs. 16, 17)
  int cg_iterations;               // most conjugate-gradient iterations per solve
  double cg_tolerance;             // relative residual at which conjugate gradients stop
  CgPreconditionerKind cg_preconditioner;  // P of conjugate gradients (Fig. 17)
  int chebyshev_delay;        // S of Alg. 3: plain PD for the first S iterations (paper: 10)
  double chebyshev_rho;       // rho of Alg. 3; 0 = estimated by a training run
  int hessian_refresh_frames;  // N of the Hecht et al. 2012 baseline (Fig. 10): its Hessian is refactored every N frames
  double vbd_rho;             // vbd: rho of its Chebyshev acceleration; 0 = none
  int anderson_window;        // anderson: m, the residuals it combines
  double jacobi_rho;          // jacobi: rho of its Chebyshev acceleration
  double jacobi_step;         // jacobi: the step length alpha each frame starts with
  InitialGuess initial_guess;  // where each frame's solve starts: y (Alg. 1), VBD's adaptive guess, or x_n
  bool inversion_guard;        // no step of the line search turns a tet flat or inverted
  PbdSettings pbd;
  bool operator==(const SolverSettings&) const = default;
};

// Wind on surfaces (thesis Sec. 8.4): a drag along each surface triangle's normal, proportional to the
// velocity of the surface relative to the air; 0 drag (the default) means no air at all.
struct WindSettings {
  Vec3 velocity;       // of the air (m/s)
  double drag;         // force per area per relative normal speed (N s/m^3)
  double gust;         // relative amplitude of gusts: the air moves at velocity (1 + gust noise(t))
  double gust_period;  // time scale of the gusts (s)
  int seed;            // of the gust noise
};

// Self-collisions (core/collision/self_contacts.h): penalties between the bodies' own surfaces and
// strands, in g and grad g only, never in A.
struct SelfCollisionSettings {
  bool enabled;
  double thickness;  // vertices are kept this far from triangles (m)
  double stiffness;  // of the penalty (N/m)
};

struct Settings {
  Settings();  // the registry's defaults
  double time_step;
  IntegratorKind integrator;
  Vec3 gravity;
  double damping;  // drag: the share of the velocity (or of its deviation from rigid motion) removed before each step
  DampingModel damping_model;  // what the drag removes (core/sim/damping.h)
  double material_damping;     // beta (s) of stiffness-proportional damping, beta L_e v in the forces
  int threads;     // 0 = all cores
  double memory_share;  // of the machine's memory a scene may need before it is refused (memory_budget.h)
  double contact_stiffness;
  double contact_friction;    // Coulomb coefficient (0 = frictionless)
  double contact_slip_speed;  // m/s
  ContactModel contact_model;  // the paper's penalties, or IPC's barrier with collision detection in the line search
  double contact_dhat;         // the barrier's reach d^, relative to the rest shape's bounding-box diagonal
  bool contact_push;           // under the barrier: moving colliders push the body within the solve, lagging where it cannot give way
  SolverSettings solver;
  WindSettings wind;
  RemovalMatrix removal_matrix;  // what tearing and cutting do to A (thesis Sec. 8.4; core/model/removal.h)
  SelfCollisionSettings self_collision;
};

}  // namespace qnsim
