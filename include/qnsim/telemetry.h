#pragma once
// What a frame reports: one FrameRecord per frame, and the solver's IterationRecords. Energies in J,
// positions in m, times in ms of wall time. The CSV writers use the column names documented in docs/cli.md.
#include <cmath>
#include <iosfwd>
#include <vector>

#include "qnsim/types.h"

namespace qnsim {

// Wall time per phase of a frame (ms).
struct PhaseTimes {
  double gradient = 0, linear_solve = 0, lbfgs = 0, line_search = 0, contacts = 0;
  double projection = 0;  // pbd, xpbd: the constraint sweeps

  PhaseTimes& operator+=(const PhaseTimes& t) {
    gradient += t.gradient;
    linear_solve += t.linear_solve;
    lbfgs += t.lbfgs;
    line_search += t.line_search;
    contacts += t.contacts;
    projection += t.projection;
    return *this;
  }
  PhaseTimes operator/(double n) const {
    return {gradient / n, linear_solve / n, lbfgs / n, line_search / n, contacts / n, projection / n};
  }
};

// One iterate of a frame's solve (Alg. 1).
struct IterationRecord {
  int iteration = 0;  // 0 = the initial guess x = y
  double g = 0, grad_norm = 0;
  double alpha = 0;    // accepted step (0 when no step was possible)
  int ls_trials = 0;   // objective evaluations in this iteration's line search
  double time_ms = 0;  // since the start of the frame's solve
  bool fallback = false;  // the solver's direction was not a descent direction
  double residual = NAN;  // pbd, xpbd: RMS of the elastic constraints' C + alpha~ lambda (NaN for the others)
};

// The terms of g at an iterate (J).
struct EnergyParts {
  double inertia = 0, elastic = 0, attachment = 0, contact = 0, self_contact = 0, drag = 0, friction = 0, wind = 0, damping = 0;
  double barrier = 0;  // contact.model=barrier (core/collision/barrier.h)
  double total() const { return inertia + elastic + attachment + contact + self_contact + drag + friction + wind + damping + barrier; }
};

// A frame's solve: its iterates, the time of each phase and the trials of its line searches.
struct FrameSolveResult {
  std::vector<IterationRecord> iterations;  // iteration 0 .. K
  PhaseTimes times;
  int ls_trials = 0;
  double g = 0;
  EnergyParts parts;  // of the final iterate
  // The smallest step bound of a line search, or (a method without one) the smallest fraction of a
  // vertex's move that collision detection kept; 1 when never limited.
  double ccd_step = 1;
};

// What one frame did: the frame CSV's row (docs/cli.md).
struct FrameRecord {
  int frame = 0;
  double time = 0;
  int iterations = 0, ls_trials = 0;
  double frame_ms = 0;      // the frame's solve, without the exact reference solve
  double reference_ms = 0;  // the exact reference solve (--reference), 0 without one
  double g = 0, elastic_energy = 0, kinetic_energy = 0;
  double min_det_f = 1;
  int inverted = 0, active_contacts = 0;
  double max_penetration = 0, bbox_diagonal = 0;
  int self_contacts = 0;            // self-contact terms that push
  double max_self_penetration = 0;  // the deepest of them (m)
  Vec3 com = Vec3::Zero();
  long factorizations = 0;  // since the simulation started
  bool rolled_back = false;  // the solve diverged and the frame kept the last good state (Simulation::lastWarning)
  int torn = 0;     // elements removed by tearing at the end of the frame
  int removed = 0;  // elements removed so far, torn or cut
  // The exact intersection check (Simulation::setIntersectionCheck): crossing triangle pairs and edges,
  // and vertices inside colliders, at the frame's end; -1 when not checked.
  int intersections = -1;
  // contact.model=barrier: the smallest distance of a barrier pair at the frame's end (m), the pairs within
  // the barrier's reach there, and the smallest step bound the collision detection put on a line search in
  // the frame (1 = never limited). 0, 0 and 1 with penalties.
  double min_distance = 0;
  int barrier_pairs = 0;
  double ccd_step = 1;
  // contact.push: how far the colliders are behind their script at the frame's end (m, the largest); 0 otherwise.
  double collider_lag = 0;
  PhaseTimes times;
};

// One column of the frame CSV: its name, its meaning (docs/cli.md) and its value. The CSV writer and the
// Python module's FrameRecord read this one list.
struct FrameColumn {
  const char* name;
  const char* meaning;
  bool integer;  // written without a fraction
  double (*value)(const FrameRecord&);
};
const std::vector<FrameColumn>& frameColumns();

void writeFrameCsvHeader(std::ostream& out);
void writeFrameCsvRow(std::ostream& out, const FrameRecord& r);
void writeIterationCsvHeader(std::ostream& out);
// rel_error[k] is Eq. 12 for iterate k, or empty when no reference was computed.
void writeIterationCsvRows(std::ostream& out, int frame, const std::vector<IterationRecord>& iterations,
                           const std::vector<double>& rel_error);

}  // namespace qnsim
