#pragma once
// The substitution kernels of PackedLdlt, compiled twice: portably, and for AVX2 with FMA (chosen at
// run time by the CPU: core/common/simd.h). Only plain types cross this boundary, and
// ldlt_kernels.inc includes nothing, so no inline function of a shared header is ever compiled with
// the wider instructions.
#include "core/common/simd.h"

namespace qnsim {

// A row of the right-hand side: x, y, z and a pad, one AVX register (two SSE2 ones).
typedef double LdltRow __attribute__((vector_size(32)));
// Its storage, aligned for AVX in every translation unit (without AVX, compilers align LdltRow to 16
// bytes only).
struct alignas(32) LdltRowStorage {
  LdltRow xyz;
};

// Column j of L (see PackedLdlt): its values at value[first...], the rows j+1..last of its supernode
// head..last, then the supernode's shared rows pattern[shared..shared_end), the top ones from
// shared_top on.
struct LdltColumn {
  int first, head, last, shared, shared_top, shared_end;
};

struct LdltView {
  const LdltColumn* column;
  const int* pattern;
  const double* value;
  const double* inverse_diagonal;
  LdltRow* y;
};

QNSIM_SIMD_BUILDS(ldlt_portable, ldlt_avx2,
    // L y = y over `count` ascending columns (whole supernodes); with `slot`, the updates of top rows
    // are added to update[slot[row]] instead of subtracted from y.
    void forward(const LdltView& L, const int* columns, int count, const int* slot, LdltRow* update);
    // D L^T y = y over `count` ascending columns (whole supernodes), last first.
    void backward(const LdltView& L, const int* columns, int count);)

}  // namespace qnsim
