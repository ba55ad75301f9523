// The inversion guard's rescue of a stopped step (solver.inversion_guard, inversion_bound.h). Where d
// would flatten further a tet already as flat as round-off allows, the guard's bound is 0, and without
// a rescue the solve ends the frame where it started: at x_n moved towards y with no elastic force
// applied, so that a body held that way falls under gravity, frame after frame, and stays stopped
// once the load is gone (tests/test_inversion_bound.cpp, GuardRescue). The rescue changes d as little as A
// measures, A being the solver's model of how the body responds to a push (the paper's A0), so that
// the tets that stop it open instead, and the rest of the body moves with them.
#include <algorithm>
#include <vector>

#include "core/model/inversion_bound.h"
#include "core/sim/simulation_impl.h"

namespace qnsim {
namespace {

constexpr int kRounds = 8;         // growths of the held set by the tets that stop the rescued direction
constexpr int kMostHeld = 32;      // tets held at most (a solve with A each)
constexpr double kReach = 0.05;    // a tet that stops the step below this is held
constexpr double kOpening = 1e-3;  // det F a held tet flatter than it reaches at the full step, to first order

using TetVector = Eigen::Matrix<double, 12, 1>;

TetVector gather(const TetElements& tets, const VecX& v, int e) {
  TetVector out;
  for (int k = 0; k < 4; ++k) out.segment<3>(3 * k) = vertex(v, tets.vertices[e][k]);
  return out;
}

// A held tet: its row c of C, the gradient of its det Ds (its rate of change along a step), and A^-1 c^T.
struct HeldTet {
  int tet;
  TetVector row;
  VecX response;
};

HeldTet holdTet(const TetElements& tets, SystemMatrix& A, const VecX& x, int e) {
  HeldTet held{e, detGradient(tets, x, e), VecX::Zero(x.size())};
  for (int k = 0; k < 4; ++k) vertex(held.response, tets.vertices[e][k]) = held.row.segment<3>(3 * k);
  A.solve(held.response);
  return held;
}

// d + A^-1 C^T lambda, the direction nearest d in A's norm with c_i . d' = r_i for every held tet: r_i
// the rate that opens a tet flatter than kOpening to it at the full step, 0 for the others (held where
// they are along d').
VecX heldDirection(const TetElements& tets, const VecX& x, const VecX& d, const std::vector<HeldTet>& held) {
  const int n = static_cast<int>(held.size());
  MatX C_response(n, n);  // C A^-1 C^T
  VecX shortfall(n);
  for (int i = 0; i < n; ++i) {
    const int e = held[i].tet;
    for (int j = 0; j < n; ++j) C_response(i, j) = held[i].row.dot(gather(tets, held[j].response, e));
    const double rate = std::max(0.0, 6 * tets.volume[e] * kOpening - tets.deformedEdges(x, e).determinant());
    shortfall[i] = rate - held[i].row.dot(gather(tets, d, e));
  }
  const VecX lambda = C_response.ldlt().solve(shortfall);
  VecX result = d;
  for (int j = 0; j < n; ++j) result += lambda[j] * held[j].response;
  return result;
}

}  // namespace

StepRescue Simulation::Impl::stepRescue() {
  return [this](const VecX& x, VecX& d) { return guardsInversion() && rescueStep(x, d); };
}

// The held set starts with the tets that stop d, the tightest first, and grows by those that stop the
// direction found, until none is left unheld or kMostHeld are held.
bool Simulation::Impl::rescueStep(const VecX& x, VecX& d) {
  const TetElements& tets = built.model.tets;
  std::vector<int> stopping = stoppingTets(tets, x, d, kReach);
  if (stopping.empty()) return false;
  std::vector<HeldTet> held;
  VecX rescued;
  for (int round = 0; round < kRounds; ++round) {
    const std::size_t before = held.size();
    for (int e : stopping) {
      if (held.size() == kMostHeld) break;
      if (std::none_of(held.begin(), held.end(), [e](const HeldTet& h) { return h.tet == e; })) held.push_back(holdTet(tets, *system, x, e));
    }
    if (held.size() == before) break;  // what stops the direction is held already
    rescued = heldDirection(tets, x, d, held);
    if (held.size() == kMostHeld || round + 1 == kRounds) break;  // no room, or no round, for what stops it
    stopping = stoppingTets(tets, x, rescued, kReach);
  }
  if (!rescued.allFinite()) return false;
  d = rescued;
  return true;
}

}  // namespace qnsim
