// The direction solvers without a file of their own (gradient descent) and the factory of direction.h.
#include "core/solver/direction.h"

#include "core/common/timer.h"
#include "core/objective/objective.h"
#include "core/solver/chebyshev.h"
#include "core/solver/lbfgs.h"
#include "core/solver/newton.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"

namespace qnsim {
namespace {

// Steepest descent in the metric of the inertia term: d = -(w M)^-1 grad g. Plain -grad g would need
// the line search to find a step scale of h^2/m first; in this metric the full step is well scaled.
class GradientDescentSolver final : public DirectionSolver {
 public:
  explicit GradientDescentSolver(const Objective& objective) : objective_(objective) {}
  void direction(const VecX&, const VecX& gradient, VecX& d, PhaseTimes& times) override {
    Timer timer;
    const VecX& mass = objective_.model().mass;
    const double w = objective_.inertiaWeight();
    d.resize(gradient.size());
    for (Eigen::Index v = 0; v < mass.size(); ++v) vertex(d, v) = -vertex(gradient, v) / (w * mass[v]);
    times.linear_solve += timer.ms();
  }

 private:
  const Objective& objective_;
};

std::string methodName(SolverMethod method) { return findParameter("solver.method").choices[static_cast<int>(method)]; }

}  // namespace

std::unique_ptr<DirectionSolver> makeDirectionSolver(const SolverSettings& settings, Objective& objective, SystemMatrix& system) {
  switch (settings.method) {
    case SolverMethod::QuasiNewton:
      return std::make_unique<LbfgsSolver>(makeInitialHessian(settings.initial_hessian, objective, system, settings), settings.lbfgs_window,
                                           /*follows_settings=*/true);
    case SolverMethod::ProjectiveDynamics:
      return std::make_unique<LbfgsSolver>(makeInitialHessian(InitialHessianKind::Laplacian, objective, system, settings), 0);
    case SolverMethod::Newton:
    case SolverMethod::NewtonAbsolute: return std::make_unique<NewtonSolver>(objective, system, settings);
    case SolverMethod::GradientDescent: return std::make_unique<GradientDescentSolver>(objective);
    case SolverMethod::Chebyshev:
      return std::make_unique<ChebyshevSolver>(objective, system, settings.chebyshev_delay, settings.chebyshev_rho);
    case SolverMethod::Hecht: return std::make_unique<LbfgsSolver>(makeHechtHessian(objective, settings.hessian_refresh_frames), 0);
    case SolverMethod::Pbd:
    case SolverMethod::Xpbd:
    case SolverMethod::Vbd:
    case SolverMethod::Anderson:
    case SolverMethod::Jacobi:
    case SolverMethod::Admm: throw error("solver.method=", methodName(settings.method), " takes no descent directions; makeFrameMethod runs it");
  }
  return nullptr;
}

}  // namespace qnsim
