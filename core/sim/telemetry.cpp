#include "core/sim/telemetry.h"

#include <cstdio>
#include <ostream>

namespace qnsim {
namespace {
// Full precision, locale-independent.
std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}
}  // namespace

void writeFrameCsvHeader(std::ostream& out) {
  out << "frame,time,iterations,ls_trials,frame_ms,g,elastic_energy,kinetic_energy,min_det_f,inverted,active_contacts,"
         "max_penetration,bbox_diagonal,com_x,com_y,com_z,factorizations,reference_ms,rolled_back\n";
}

void writeFrameCsvRow(std::ostream& out, const FrameRecord& r) {
  out << r.frame << ',' << num(r.time) << ',' << r.iterations << ',' << r.ls_trials << ',' << num(r.frame_ms) << ',' << num(r.g) << ','
      << num(r.elastic_energy) << ',' << num(r.kinetic_energy) << ',' << num(r.min_det_f) << ',' << r.inverted << ','
      << r.active_contacts << ',' << num(r.max_penetration) << ',' << num(r.bbox_diagonal) << ',' << num(r.com.x()) << ','
      << num(r.com.y()) << ',' << num(r.com.z()) << ',' << r.factorizations << ',' << num(r.reference_ms) << ',' << r.rolled_back << '\n';
}

void writeIterationCsvHeader(std::ostream& out) { out << "frame,iter,g,grad_norm,alpha,ls_trials,time_ms,rel_error\n"; }

void writeIterationCsvRows(std::ostream& out, int frame, const std::vector<IterationRecord>& iterations, const std::vector<double>& rel_error) {
  for (size_t k = 0; k < iterations.size(); ++k) {
    const IterationRecord& it = iterations[k];
    out << frame << ',' << it.iteration << ',' << num(it.g) << ',' << num(it.grad_norm) << ',' << num(it.alpha) << ',' << it.ls_trials << ','
        << num(it.time_ms) << ',';
    if (k < rel_error.size()) out << num(rel_error[k]);
    out << '\n';
  }
}

}  // namespace qnsim
