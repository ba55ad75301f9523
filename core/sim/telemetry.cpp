#include "qnsim/telemetry.h"

#include <cmath>
#include <cstdio>
#include <ostream>
#include <utility>

namespace qnsim {
namespace {
// Full precision, locale-independent.
std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}
}  // namespace

const std::vector<FrameColumn>& frameColumns() {
  using R = const FrameRecord&;
  static const std::vector<FrameColumn> columns = {
      {"frame", "Frame number (1 = the first step).", true, [](R r) { return double(r.frame); }},
      {"time", "Simulated time (s) at the frame's end.", false, [](R r) { return r.time; }},
      {"iterations", "Solver iterations taken.", true, [](R r) { return double(r.iterations); }},
      {"ls_trials", "Objective evaluations in the line searches.", true, [](R r) { return double(r.ls_trials); }},
      {"frame_ms", "Wall time of the frame's solve (without the reference solve).", false, [](R r) { return r.frame_ms; }},
      {"g", "Objective (Eq. 3) at the solution.", false, [](R r) { return r.g; }},
      {"elastic_energy", "Elastic energy (tets and springs).", false, [](R r) { return r.elastic_energy; }},
      {"kinetic_energy", "Kinetic energy 1/2 v^T M v.", false, [](R r) { return r.kinetic_energy; }},
      {"min_det_f", "Smallest det F over the tets.", false, [](R r) { return r.min_det_f; }},
      {"inverted", "Tets with det F <= 0.", true, [](R r) { return double(r.inverted); }},
      {"active_contacts", "Contact terms in the active set.", true, [](R r) { return double(r.active_contacts); }},
      {"max_penetration", "Deepest vertex below a collider surface (m).", false, [](R r) { return r.max_penetration; }},
      {"self_contacts", "Self-contact terms that push (vertex-triangle and strand pairs closer than the contact distance).", true,
       [](R r) { return double(r.self_contacts); }},
      {"max_self_penetration",
       "Deepest self-contact (m): the contact distance minus the vertex's height above the triangle (or the strands' distance); "
       "more than the thickness means the vertex is through the triangle.",
       false, [](R r) { return r.max_self_penetration; }},
      {"bbox_diagonal", "Bounding-box diagonal of the deformed state.", false, [](R r) { return r.bbox_diagonal; }},
      {"com_x", "Centre of mass, x.", false, [](R r) { return r.com.x(); }},
      {"com_y", "Centre of mass, y.", false, [](R r) { return r.com.y(); }},
      {"com_z", "Centre of mass, z.", false, [](R r) { return r.com.z(); }},
      {"factorizations", "Sparse Cholesky factorizations since the start.", true, [](R r) { return double(r.factorizations); }},
      {"reference_ms", "Wall time of the exact reference solve (reference), 0 without it.", false, [](R r) { return r.reference_ms; }},
      {"rolled_back", "1 when the solve diverged and the frame kept the last good positions with zero velocity.", true,
       [](R r) { return double(r.rolled_back); }},
      {"torn", "Elements (tets and springs) removed by tearing at the end of the frame.", true, [](R r) { return double(r.torn); }},
      {"removed", "Elements removed so far, torn or cut.", true, [](R r) { return double(r.removed); }},
      {"intersections",
       "Exact intersection check (run --check-intersections): intersecting surface triangle pairs, plus edges crossing a "
       "triangle, plus surface vertices inside a collider; -1 when not checked.",
       true, [](R r) { return double(r.intersections); }},
      {"min_distance", "contact.model=barrier: smallest distance of a barrier pair at the frame's end (m); 0 with penalties.", false,
       [](R r) { return r.min_distance; }},
      {"barrier_pairs", "contact.model=barrier: pairs within the barrier's reach (d < d^) at the frame's end; 0 with penalties.", true,
       [](R r) { return double(r.barrier_pairs); }},
      {"ccd_step",
       "contact.model=barrier or solver.inversion_guard: the smallest step bound continuous collision detection or the "
       "inversion guard put on a line search in the frame (after the guard's rescue of a step it stopped at once, the rescued "
       "step's; 0 where the rescue found none), or for a method without one the smallest fraction of a vertex's "
       "move that collision detection kept (1 = never limited).",
       false, [](R r) { return r.ccd_step; }},
      {"collider_lag",
       "contact.push: how far the colliders stand behind their scripted pose at the frame's end (m, the largest), where the "
       "body could not give way; 0 otherwise.",
       false, [](R r) { return r.collider_lag; }},
  };
  return columns;
}

void writeFrameCsvHeader(std::ostream& out) {
  const char* separator = "";
  for (const FrameColumn& c : frameColumns()) out << std::exchange(separator, ",") << c.name;
  out << '\n';
}

void writeFrameCsvRow(std::ostream& out, const FrameRecord& r) {
  const char* separator = "";
  for (const FrameColumn& c : frameColumns()) {
    out << std::exchange(separator, ",");
    if (c.integer) out << static_cast<long long>(c.value(r));
    else out << num(c.value(r));
  }
  out << '\n';
}

void writeIterationCsvHeader(std::ostream& out) { out << "frame,iter,g,grad_norm,alpha,ls_trials,time_ms,rel_error,residual\n"; }

void writeIterationCsvRows(std::ostream& out, int frame, const std::vector<IterationRecord>& iterations, const std::vector<double>& rel_error) {
  for (size_t k = 0; k < iterations.size(); ++k) {
    const IterationRecord& it = iterations[k];
    out << frame << ',' << it.iteration << ',' << num(it.g) << ',' << num(it.grad_norm) << ',' << num(it.alpha) << ',' << it.ls_trials << ','
        << num(it.time_ms) << ',';
    if (k < rel_error.size()) out << num(rel_error[k]);
    out << ',';
    if (!std::isnan(it.residual)) out << num(it.residual);
    out << '\n';
  }
}

}  // namespace qnsim
