#pragma once
// How much memory a model will need, estimated from its counts before anything is allocated, so that a
// scene too large for the machine is refused with a message instead of swapping it to a halt.
#include <string>

namespace qnsim {

struct ModelSize {
  double solid_vertices = 0, tets = 0;      // tet bodies
  double cloth_vertices = 0, springs = 0;  // spring bodies (cloth)
  ModelSize& operator+=(const ModelSize& o);
};

// Bytes for the model, the system matrix A and its sparse Cholesky factor, the solver's vectors and the
// element loops' scratch. The factor dominates: its fill grows as n^(4/3) for solids (nested dissection
// in 3-D) and about linearly for cloth. Fitted above peak resident sizes measured on boxes and cloths
// (docs/reliability.md), so it errs on the large side.
double estimateModelBytes(const ModelSize& size);

// The memory this process may use: the machine's physical memory, or the cgroup's limit when smaller.
double availableMemoryBytes();

// Throws qnsim::Error naming `what`, the counts, the estimate and the limit (share x available memory)
// when the estimate exceeds the limit; the message says how to raise it (the memory_share setting).
void checkMemoryBudget(const ModelSize& size, double share, const std::string& what);

// The largest resident size this process has had so far (getrusage), in bytes.
double peakResidentBytes();

// "12.3 GB": sizes in messages.
std::string formatBytes(double bytes);

}  // namespace qnsim
