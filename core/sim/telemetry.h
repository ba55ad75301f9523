#pragma once
// What a frame reports: one FrameRecord per frame, and the solver's IterationRecords (frame_solver.h).
// The CSV writers use the column names documented in docs/cli.md.
#include <iosfwd>
#include <vector>

#include "core/solver/frame_solver.h"

namespace qnsim {

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
  int self_contacts = 0;            // self-contact terms that push (self_contacts.h)
  double max_self_penetration = 0;  // the deepest of them (m)
  Vec3 com = Vec3::Zero();
  long factorizations = 0;  // since the simulation started
  bool rolled_back = false;  // the solve diverged and the frame kept the last good state (Simulation::lastWarning)
  int torn = 0;     // elements removed by tearing at the end of the frame (core/model/removal.h)
  int removed = 0;  // elements removed so far, torn or cut
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
