#include "qnsim/parameters.h"

#include <algorithm>

#include "qnsim/error.h"

namespace qnsim {
namespace {

using Type = Parameter::Type;

// Declaration helpers: `field` maps a Settings to the member the parameter controls.
template <class T, class Field>
SettingParameter declare(std::string key, std::string group, std::string description, Type type, ParameterValue default_value,
                  double min, double max, Field field, Effect effect = Effect::Live) {
  SettingParameter p{{std::move(key), std::move(group), std::move(description), type, std::move(default_value), min, max, {}, effect}, {}, {}};
  p.get = [field](const Settings& s) { return ParameterValue(T(field(const_cast<Settings&>(s)))); };
  p.assign = [field](Settings& s, const ParameterValue& v) { field(s) = std::get<T>(v); };
  return p;
}

// `names` in the order of the enum's values; the default is the enum's first value unless given.
template <class Enum, class Field>
SettingParameter choice(std::string key, std::string group, std::string description, std::vector<std::string> names, Field field,
                 Effect effect = Effect::Live, Enum default_value = Enum{}) {
  const std::string default_name = names[static_cast<int>(default_value)];
  SettingParameter p{{std::move(key), std::move(group), std::move(description), Type::Choice, default_name, 0, 0, names, effect}, {}, {}};
  p.get = [field, names](const Settings& s) { return ParameterValue(names[static_cast<int>(field(const_cast<Settings&>(s)))]); };
  p.assign = [field, names](Settings& s, const ParameterValue& v) {
    field(s) = static_cast<Enum>(std::find(names.begin(), names.end(), std::get<std::string>(v)) - names.begin());
  };
  return p;
}

std::vector<SettingParameter> declareAll() {
  return {
      declare<double>("time_step", "Integrator", "Time step h in seconds; one backward Euler step per frame (paper: 1/30).", Type::Real,
                      1.0 / 30.0, 1e-5, 1.0, [](Settings& s) -> double& { return s.time_step; }, Effect::NewSystemMatrix),
      choice<IntegratorKind>("integrator", "Integrator",
                             "backward_euler: the paper's (Eq. 3); implicit_midpoint: symplectic, less stable with stiff materials "
                             "(Sec. 3); bdf2: second order, less numerical damping. Each is one minimisation per step.",
                             {"backward_euler", "implicit_midpoint", "bdf2"}, [](Settings& s) -> IntegratorKind& { return s.integrator; },
                             Effect::NewSystemMatrix),
      declare<Vec3>("gravity", "Integrator", "Gravitational acceleration (m/s^2).", Type::Vector3, Vec3(0, -9.81, 0), -1e4, 1e4,
                    [](Settings& s) -> Vec3& { return s.gravity; }),
      declare<double>("damping", "Integrator",
                      "Drag: before each step the velocity (damping_model=ether), or each body's deviation from its rigid motion "
                      "(rigid_modes), is scaled by (1 - damping).",
                      Type::Real, 0.0, 0.0, 1.0, [](Settings& s) -> double& { return s.damping; }),
      choice<DampingModel>("damping_model", "Integrator",
                           "What the drag `damping` removes. ether: the whole velocity (ether drag, Su et al. 2013), which slows "
                           "translation and rotation too; rigid_modes: per body only the velocity that deviates from its rigid motion "
                           "v_cm + omega x r (Mueller et al. 2007, Sec. 3.5), so linear and angular momentum are kept.",
                           {"ether", "rigid_modes"}, [](Settings& s) -> DampingModel& { return s.damping_model; }),
      declare<double>("material_damping", "Integrator",
                      "Stiffness-proportional material damping beta (s): a viscous stress beta k sym(R^T dF/dt) on each element's strain "
                      "rate in its own frame (k its stiffness in L; springs along their direction), from a potential in g whose "
                      "Hessian (beta/h) L_e, L_e the elastic part of L, bounds; A holds that bound. High frequencies are damped "
                      "more (damping ratio about beta omega / 2); translation and turning are not damped. 0 = none.",
                      Type::Real, 0.0, 0.0, 10.0, [](Settings& s) -> double& { return s.material_damping; }, Effect::NewSystemMatrix),
      declare<int>("threads", "Performance", "Worker threads for element loops; 0 = all cores (or QNSIM_THREADS). Results do not depend on it.",
                   Type::Integer, 0, 0, 256, [](Settings& s) -> int& { return s.threads; }),
      declare<double>("memory_share", "Performance",
                      "Largest share of this machine's memory a scene may need, estimated from its vertex and tet counts before "
                      "anything is allocated; a larger scene is refused with the estimate. Set it before the bodies (scene file "
                      "or --set).",
                      Type::Real, 0.5, 0.01, 1.0, [](Settings& s) -> double& { return s.memory_share; }),
      declare<double>("contact_stiffness", "Collisions", "Stiffness k_c of the contact energy k_c/2 ((x - t) . n)^2 (N/m).",
                      Type::Real, 1e5, 0.0, 1e12, [](Settings& s) -> double& { return s.contact_stiffness; }),
      declare<double>("contact_friction", "Collisions",
                      "Coulomb friction coefficient of contacts (tangential force <= coefficient x normal force, in g and grad g, "
                      "not in A); under contact.model=barrier, lagged: the collider contacts' normal forces from the end of the "
                      "frame before, self-contact's from the last frame's motion (docs/contact.md), and for the methods without "
                      "a line search position-based (a sliding vertex's motion along a collider shortened by the coefficient "
                      "times its motion into it); 0 = frictionless.",
                      Type::Real, 0.0, 0.0, 10.0, [](Settings& s) -> double& { return s.contact_friction; }),
      declare<double>("contact_slip_speed", "Collisions",
                      "Tangential speed (m/s) below which friction acts as a stiff linear drag instead of the constant Coulomb force.",
                      Type::Real, 0.01, 1e-6, 100.0, [](Settings& s) -> double& { return s.contact_slip_speed; }),
      choice<ContactModel>("contact.model", "Collisions",
                           "penalty: the paper's contacts (Sec. 4.3), k_c/2 ((x - t) . n)^2 on penetrating vertices, which lets "
                           "surfaces overlap a little by design; barrier: Incremental Potential Contact (Li et al. 2020), a log "
                           "barrier kappa b(d) on every vertex closer than d^ to a collider and, with self_collision.enabled, on every "
                           "vertex-triangle and edge-edge pair of the surfaces closer than d^, with an adaptive kappa, and a line "
                           "search that never steps past the first time of impact found by continuous collision detection, so no "
                           "iterate enters a collider or crosses a surface (docs/contact.md). Both stay out of A. The methods without a "
                           "line search (vbd, jacobi, pbd, xpbd) keep the penalties' forces, and collision detection cuts every move "
                           "they make, so nothing passes through under them either.",
                           {"penalty", "barrier"}, [](Settings& s) -> ContactModel& { return s.contact_model; }),
      declare<double>("contact.dhat", "Collisions",
                      "Reach d^ of the contact barrier (contact.model=barrier), as a fraction of the rest shape's bounding-box "
                      "diagonal (IPC: 1e-3): vertices closer than this to a collider feel it.",
                      Type::Real, 1e-3, 1e-6, 0.1, [](Settings& s) -> double& { return s.contact_dhat; }),
      declare<bool>("contact.push", "Collisions",
                    "Under contact.model=barrier: a moving collider pushes the body within the solve. Before every iteration it "
                    "advances along its motion as far as the body, moved with it (the vertices it meets carried along, the "
                    "others following through A), can go with no tet turning flat and nothing crossing; what it cannot make up "
                    "by the frame's end it carries into the next, lagging its script (docs/contact.md). Off: colliders stand at "
                    "their scripted pose during the solve, and vertices they overrun are put back outside along their normal.",
                    Type::Boolean, false, 0, 0, [](Settings& s) -> bool& { return s.contact_push; }),
      declare<bool>("self_collision.enabled", "Self-collisions",
                    "Contacts of the bodies with themselves and each other: a surface vertex closer than the thickness to a "
                    "triangle (cloth triangles, boundary faces of tet bodies) and strand segments closer than their radii get "
                    "a penalty in g and grad g, never in A. Pairs of one body that are that close at rest are left out. Under "
                    "contact.model=barrier the contact barrier holds the surfaces apart instead (thickness and stiffness unused).",
                    Type::Boolean, false, 0, 0, [](Settings& s) -> bool& { return s.self_collision.enabled; }),
      declare<double>("self_collision.thickness", "Self-collisions",
                      "Contact distance (m) between a surface vertex and a triangle: the penalty acts while the vertex is less "
                      "than this above the triangle's plane, on the side it started the frame on (cloth) or outside (tet "
                      "bodies). Strands use their own radius instead.",
                      Type::Real, 0.005, 1e-6, 1.0, [](Settings& s) -> double& { return s.self_collision.thickness; }),
      declare<double>("self_collision.stiffness", "Self-collisions",
                      "Stiffness k of the self-contact penalty k/2 gap^2 (N/m), for vertex-triangle and strand pairs.", Type::Real, 1e3,
                      0.0, 1e12, [](Settings& s) -> double& { return s.self_collision.stiffness; }),
      declare<Vec3>("wind.velocity", "Wind", "Velocity of the air (m/s); it acts on surfaces only where wind.drag > 0.", Type::Vector3,
                    Vec3(0, 0, 0), -1e3, 1e3, [](Settings& s) -> Vec3& { return s.wind.velocity; }),
      declare<double>("wind.drag", "Wind",
                      "Drag of the air on surfaces, per area and per relative speed along the normal (N s/m^3); 0 = no air. In g and "
                      "grad g only, never in A.",
                      Type::Real, 0.0, 0.0, 1e6, [](Settings& s) -> double& { return s.wind.drag; }),
      declare<double>("wind.gust", "Wind", "Gusts: the air moves at velocity x (1 + gust x noise(t)), noise smooth in [-1, 1].",
                      Type::Real, 0.0, 0.0, 2.0, [](Settings& s) -> double& { return s.wind.gust; }),
      declare<double>("wind.gust_period", "Wind", "Time scale of the gusts (s): the noise takes a new random value this often.",
                      Type::Real, 1.0, 1e-3, 1e3, [](Settings& s) -> double& { return s.wind.gust_period; }),
      declare<int>("wind.seed", "Wind", "Seed of the gust noise (the same seed gives the same gusts).", Type::Integer, 1, 0, 1000000000,
                   [](Settings& s) -> int& { return s.wind.seed; }),
      choice<RemovalMatrix>("tearing.matrix", "Tearing",
                            "What removing elements (torn past their material's tear_strain, or cut in the sandbox) does to "
                            "A = M/h^2 + L (thesis Sec. 8.4). keep: A stays as it was; the removed elements leave g and grad g only "
                            "and the line search absorbs the mismatch (A still holds M/h^2, so it stays positive definite and the "
                            "directions descend). refactor: A without them is refactored on a background thread and swapped in at "
                            "the first frame after it is ready, as material edits are. Applies to the next removal.",
                            {"keep", "refactor"}, [](Settings& s) -> RemovalMatrix& { return s.removal_matrix; }),
      choice<SolverMethod>("solver.method", "Solver",
                           "qn: quasi-Newton with L-BFGS (Alg. 1 + 2); pd: Projective Dynamics local/global step (Alg. 1, m = 0); "
                           "newton: Newton with per-element PSD projection and a direct solve; gd: mass-scaled gradient descent; "
                           "chebyshev: PD accelerated by Chebyshev's semi-iterative method (Alg. 3); hecht: Hecht et al. 2012 (Fig. 10), "
                           "Newton steps with the projected Hessian refactored every hessian_refresh_frames frames and warped by "
                           "per-vertex rotations in between; pbd: position-based FEM (the PBFE dissertation, Sec. 5.3), Gauss-Seidel sweeps over per-tet "
                           "co-rotational and volume constraints with the stiffnesses of solver.pbd; xpbd: the same constraints with "
                           "compliances from each region's material (Macklin et al. 2016), so that more iterations approach g's minimiser. "
                           "Since the paper (docs/solvers.md): newton_abs: projected Newton with negative eigenvalues made positive "
                           "instead of clamped (Chen et al. 2024); vbd: Vertex Block Descent (Chen et al. 2024), a 3x3 Newton step per "
                           "vertex in graph-coloured Gauss-Seidel sweeps, accelerated by vbd_rho; anderson: PD's fixed point with "
                           "Anderson acceleration and its energy safeguard (Peng et al. 2018); jacobi: gradient descent preconditioned "
                           "by each vertex's Hessian block, Chebyshev-accelerated (Wang and Yang 2016), no factorisation; admm: "
                           "ADMM with A as its x-step and a per-element proximal step on the material (Narain et al. 2016).",
                           {"qn", "pd", "newton", "gd", "chebyshev", "hecht", "pbd", "xpbd", "newton_abs", "vbd", "anderson", "jacobi", "admm"},
                           [](Settings& s) -> SolverMethod& { return s.solver.method; },
                           Effect::NewDirectionSolver),
      declare<int>("solver.iterations", "Solver", "Solver iterations per frame (paper: 10).", Type::Integer, 10, 1, 100000,
                   [](Settings& s) -> int& { return s.solver.iterations; }),
      declare<int>("solver.lbfgs_window", "Solver", "L-BFGS history window m (Alg. 2; paper: 5). 0 gives the plain direction -A^-1 grad g.",
                   Type::Integer, 5, 0, 1000, [](Settings& s) -> int& { return s.solver.lbfgs_window; }),
      choice<InitialHessianKind>("solver.initial_hessian", "Solver",
                                 "Initial Hessian A0 of L-BFGS (Fig. 8). laplacian: ours, M/h^2 + L, n x n, factored once; "
                                 "scaled_identity: <s,t>/<t,t> I (Nocedal-Wright); rest_hessian: M/h^2 + Hessian of E at rest, "
                                 "3n x 3n, factored once; frame_hessian: the projected Hessian at each frame's start, factored per frame "
                                 "(both solved by PCG instead with linear_solver=cg); "
                                 "warped_rest_hessian: the rest-pose Hessian warped by per-vertex rotations (Mueller et al. 2002).",
                                 {"laplacian", "scaled_identity", "rest_hessian", "frame_hessian", "warped_rest_hessian"},
                                 [](Settings& s) -> InitialHessianKind& { return s.solver.initial_hessian; }, Effect::NewDirectionSolver),
      choice<LineSearchKind>("solver.line_search", "Solver",
                             "armijo: the paper's backtracking (Alg. 1), halving the step (armijo_beta) until g decreases "
                             "sufficiently; none: always take the full step; wolfe: strong Wolfe conditions with zoom "
                             "(Nocedal-Wright Alg. 3.5/3.6), gamma as c1, wolfe_gamma2 as c2; interpolate (the default): Armijo "
                             "backtracking whose next step minimises a quadratic, then a cubic, through g and its slope at 0 and "
                             "the rejected steps, kept within [0.1, 0.5] of the last (Nocedal-Wright Sec. 3.5); it needs fewer "
                             "trials than halving on every catalog scene that backtracks (docs/benchmarks.md) and the same "
                             "where full steps are accepted.",
                             {"armijo", "none", "wolfe", "interpolate"}, [](Settings& s) -> LineSearchKind& { return s.solver.line_search; },
                             Effect::Live, LineSearchKind::Interpolate),
      declare<double>("solver.armijo_gamma", "Solver", "Armijo sufficient-decrease constant gamma (paper: 0.3).", Type::Real, 0.3, 1e-6,
                      0.999, [](Settings& s) -> double& { return s.solver.armijo_gamma; }),
      declare<double>("solver.armijo_beta", "Solver", "Backtracking factor: the step is multiplied by it after each rejected trial (paper: 0.5).",
                      Type::Real, 0.5, 0.01, 0.99, [](Settings& s) -> double& { return s.solver.armijo_beta; }),
      declare<double>("solver.wolfe_gamma2", "Solver",
                      "Curvature constant c2 of the strong Wolfe conditions |phi'(alpha)| <= c2 |phi'(0)| (line_search=wolfe); it must "
                      "exceed armijo_gamma, and a smaller value is raised just above it.",
                      Type::Real, 0.9, 1e-3, 0.999, [](Settings& s) -> double& { return s.solver.wolfe_gamma2; }),
      declare<int>("solver.max_backtracks", "Solver", "Most step halvings per line search; then the best step found is taken.",
                   Type::Integer, 30, 1, 200, [](Settings& s) -> int& { return s.solver.max_backtracks; }),
      declare<Vec2>("solver.stiffness_interval", "Solver",
                    "Stretch interval [x_start, x_end] over which the stiffness k of each material is fitted (Eq. 11; paper: [0.5, 1.5]).",
                    Type::Vector2, Vec2(0.5, 1.5), 0.01, 10.0, [](Settings& s) -> Vec2& { return s.solver.stiffness_interval; }, Effect::NewSystemMatrix),
      choice<LinearSolverKind>("solver.linear_solver", "Solver",
                               "direct: the prefactored sparse Cholesky (ours, and Newton's per-iteration factorisation); cg: "
                               "preconditioned conjugate gradients (Figs. 16, 17; solver.cg_preconditioner) for Newton's projected "
                               "Hessian, our A and the rest-pose and per-frame Hessians of L-BFGS; cg_indefinite: Newton with the "
                               "unprojected Hessian and CG that stops at negative curvature (Gast et al. 2015), cg elsewhere.",
                               {"direct", "cg", "cg_indefinite"}, [](Settings& s) -> LinearSolverKind& { return s.solver.linear_solver; },
                               Effect::NewDirectionSolver),
      declare<int>("solver.cg_iterations", "Solver", "Most conjugate-gradient iterations per solve (linear_solver=cg; the paper: 5 and 15).",
                   Type::Integer, 15, 1, 100000, [](Settings& s) -> int& { return s.solver.cg_iterations; }, Effect::NewDirectionSolver),
      declare<double>("solver.cg_tolerance", "Solver", "Relative residual |b - K x| / |b| at which conjugate gradients stop early.",
                      Type::Real, 1e-10, 0.0, 1.0, [](Settings& s) -> double& { return s.solver.cg_tolerance; }, Effect::NewDirectionSolver),
      choice<CgPreconditionerKind>("solver.cg_preconditioner", "Solver",
                                   "Preconditioner P of conjugate gradients (linear_solver=cg; Fig. 17). jacobi: diag(K) of each system; "
                                   "ichol_a: incomplete Cholesky of A = M/h^2 + L (n x n), factored once per A, applied to each "
                                   "coordinate of 3n x 3n systems; ichol_rest_hessian: incomplete Cholesky of the 3n x 3n rest-pose "
                                   "Hessian, factored once (ours by CG then solves x, y and z together). Both are Eigen's "
                                   "IncompleteCholesky (Lin-More: AMD ordering, scaling, diagonal shift), not a zero-fill IC(0).",
                                   {"jacobi", "ichol_a", "ichol_rest_hessian"},
                                   [](Settings& s) -> CgPreconditionerKind& { return s.solver.cg_preconditioner; }, Effect::NewDirectionSolver),
      declare<int>("solver.chebyshev_delay", "Solver", "Chebyshev (Alg. 3): plain PD steps for the first S iterations of a frame (paper: 10).",
                   Type::Integer, 10, 1, 100000, [](Settings& s) -> int& { return s.solver.chebyshev_delay; }, Effect::NewDirectionSolver),
      declare<double>("solver.chebyshev_rho", "Solver",
                      "Chebyshev (Alg. 3): spectral radius rho of the PD iteration; 0 estimates it from 40 plain PD steps on the first "
                      "frame solved (the rate at which their lengths shrink).",
                      Type::Real, 0.0, 0.0, 0.9999, [](Settings& s) -> double& { return s.solver.chebyshev_rho; }, Effect::NewDirectionSolver),
      declare<int>("solver.hessian_refresh_frames", "Solver",
                   "hecht (Fig. 10): its Hessian is refactored at the start of every N-th frame (paper: every other frame, N = 2); "
                   "1 refactors every frame (the per-frame Hessian). Hecht et al. take one solve per frame: solver.iterations=1, "
                   "line_search=none (experiment fig10).",
                   Type::Integer, 2, 1, 100000, [](Settings& s) -> int& { return s.solver.hessian_refresh_frames; }, Effect::NewDirectionSolver),
      declare<double>("solver.vbd_rho", "Solver",
                      "vbd: rho of the Chebyshev acceleration of its sweeps (Chen et al. 2024, after Wang 2015): from the second "
                      "sweep on, x := omega (x_swept - x_before_last) + x_before_last; 0 = plain sweeps.",
                      Type::Real, 0.0, 0.0, 0.9999, [](Settings& s) -> double& { return s.solver.vbd_rho; }, Effect::NewDirectionSolver),
      declare<int>("solver.anderson_window", "Solver",
                   "anderson: how many past fixed-point residuals Anderson acceleration combines (Peng et al. 2018: 5 or 6).",
                   Type::Integer, 5, 1, 100, [](Settings& s) -> int& { return s.solver.anderson_window; }, Effect::NewDirectionSolver),
      choice<InitialGuess>("solver.initial_guess", "Solver",
                           "Where each frame's solve starts, for every method. inertia: at y (Alg. 1 line 1); adaptive: Vertex Block "
                           "Descent's guess (Chen et al. 2024), y with its gravity term keeping only the part of g along which the "
                           "last step accelerated, clamped to [0, |g|]: a body at rest starts where it rests, a falling one at y; "
                           "previous: where the last frame ended, x_n.",
                           {"inertia", "adaptive", "previous"}, [](Settings& s) -> InitialGuess& { return s.solver.initial_guess; }),
      declare<bool>("solver.inversion_guard", "Solver",
                    "No step turns a tet flat or inverted: every trial of the line search (and Anderson's and ADMM's steps) stops short "
                    "of the first step length at which some tet's det F reaches 0 (0.9 of it), and each frame starts from "
                    "x_n moved towards its initial guess as far as that allows, so the body stays inversion-free. A step it would "
                    "stop at once (a tet flat to round-off that the step flattens further) is changed, as little as A measures, into "
                    "one that opens that tet. A material whose "
                    "energy rises steeply as det F -> 0 (neo_hookean, the steeper the smaller its inversion_j) also keeps the "
                    "steps away from flat tets, where the guard would stall them. Methods without a line search "
                    "(vbd, jacobi, pbd, xpbd) ignore it.",
                    Type::Boolean, false, 0, 0, [](Settings& s) -> bool& { return s.solver.inversion_guard; }),
      declare<double>("solver.jacobi_rho", "Solver",
                      "jacobi: rho of the Chebyshev acceleration of its preconditioned descent (Wang and Yang 2016), from iteration "
                      "chebyshev_delay on.",
                      Type::Real, 0.99, 0.0, 0.9999, [](Settings& s) -> double& { return s.solver.jacobi_rho; }, Effect::NewDirectionSolver),
      declare<double>("solver.jacobi_step", "Solver",
                      "jacobi: the step length alpha each frame starts with, the share of every vertex's block Newton step taken (all "
                      "vertices move at once, so full steps overshoot); halved whenever g rose over eight iterations.",
                      Type::Real, 0.5, 1e-3, 1.0, [](Settings& s) -> double& { return s.solver.jacobi_step; }, Effect::NewDirectionSolver),
      declare<double>("solver.gradient_tolerance", "Solver",
                      "End a frame early once |grad g| <= tolerance * |grad g(y)|; 0 runs every iteration (as the paper).", Type::Real,
                      0.0, 0.0, 1.0, [](Settings& s) -> double& { return s.solver.gradient_tolerance; }),
      declare<double>("solver.time_limit_ms", "Solver",
                      "End a frame's iterations once its solve has taken this many milliseconds (the iteration under way "
                      "finishes), a real-time frame budget; 0 runs every iteration. Every method checks it where it checks "
                      "the gradient tolerance; the exact solve for the relative error ignores it.",
                      Type::Real, 0.0, 0.0, 1e6, [](Settings& s) -> double& { return s.solver.time_limit_ms; }),
      declare<double>("solver.pbd.corotational_stiffness", "PBD",
                      "pbd: stiffness k in [0, 1] of each tet's co-rotational constraint |F - R| = 0 (R its rotation estimate); each "
                      "projection removes this share of the constraint's linearised error. xpbd takes 2 mu V from the material instead.",
                      Type::Real, 1.0, 0.0, 1.0, [](Settings& s) -> double& { return s.solver.pbd.corotational_stiffness; }),
      declare<double>("solver.pbd.volume_stiffness", "PBD",
                      "pbd: stiffness k in [0, 1] of each tet's volume constraint det F - 1 = 0; 0 leaves volume free. Near 1 the "
                      "linearised step overshoots on flat and inverted tets, which then stay tangled. xpbd takes lambda V from the "
                      "material instead.",
                      Type::Real, 0.1, 0.0, 1.0, [](Settings& s) -> double& { return s.solver.pbd.volume_stiffness; }),
      declare<double>("solver.pbd.spring_stiffness", "PBD",
                      "pbd: stiffness k in [0, 1] of each spring's distance constraint |x1 - x2| - l0 = 0 (cloth). xpbd takes the "
                      "spring constant instead.",
                      Type::Real, 1.0, 0.0, 1.0, [](Settings& s) -> double& { return s.solver.pbd.spring_stiffness; }),
      choice<PbdSweep>("solver.pbd.sweep", "PBD",
                       "pbd, xpbd: colored: the elements in colours that share no vertex, each colour projected in parallel (results "
                       "independent of the thread count); sequential: one element after another in mesh order (the PBFE dissertation's Alg. 2).",
                       {"colored", "sequential"}, [](Settings& s) -> PbdSweep& { return s.solver.pbd.sweep; }, Effect::NewDirectionSolver),
      choice<RotationUpdate>("solver.pbd.rotation_update", "PBD",
                             "pbd, xpbd: when each tet's rotation estimate (the PBFE dissertation, Sec. 3.4; Mueller et al. 2016; kept per tet from frame "
                             "to frame) is refined. projection: before each projection of the tet, as Mueller et al. use it, so that it "
                             "follows the tet within the frame; frame: once per frame at y, before the sweeps (the PBFE dissertation's Alg. 2), so that each "
                             "frame's constraints are convex in x and xpbd converges steadily, to g's minimiser with the rotations "
                             "held at y.",
                             {"projection", "frame"}, [](Settings& s) -> RotationUpdate& { return s.solver.pbd.rotation_update; }),
      declare<int>("solver.pbd.rotation_iterations", "PBD",
                   "pbd, xpbd: iterations of the rotation estimate per update (solver.pbd.rotation_update); the PBFE dissertation takes one per frame.",
                   Type::Integer, 1, 1, 100, [](Settings& s) -> int& { return s.solver.pbd.rotation_iterations; }),
      declare<bool>("solver.pbd.trace", "PBD",
                    "pbd, xpbd: evaluate g and its gradient after every sweep for the telemetry (convergence plots, Compare); "
                    "off, only after the last. Their time is reported as gradient time, not in the iterations' time.",
                    Type::Boolean, true, 0, 0, [](Settings& s) -> bool& { return s.solver.pbd.trace; }),
  };
}

}  // namespace

const std::vector<SettingParameter>& parameters() {
  static const std::vector<SettingParameter> table = declareAll();
  return table;
}

Settings::Settings() {
  for (const SettingParameter& p : parameters()) p.assign(*this, p.default_value);
}

const SettingParameter& findParameter(std::string_view key) {
  std::vector<std::string_view> known;
  for (const SettingParameter& p : parameters()) {
    if (p.key == key) return p;
    known.push_back(p.key);
  }
  throw error("unknown parameter '", key, "' (did you mean '", nearestKey(key, known), "'? `qnsim params` lists them all)");
}

void setParameter(Settings& settings, const SettingParameter& p, const ParameterValue& value) {
  checkParameterValue(p, value);
  p.assign(settings, value);
}

void setParameter(Settings& settings, std::string_view key, std::string_view text) {
  const SettingParameter& p = findParameter(key);
  setParameter(settings, p, parseParameter(p, text));
}

std::pair<std::string, std::string> splitAssignment(std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) throw error("--set ", assignment, ": expected KEY=VALUE");
  return {std::string(assignment.substr(0, eq)), std::string(assignment.substr(eq + 1))};
}


}  // namespace qnsim
