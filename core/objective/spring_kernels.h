#pragma once
// The spring loop of Objective, compiled twice: portably, and for AVX2 with FMA (chosen at run time by
// the CPU, as the linear solve's kernels). Only plain types cross this boundary and
// spring_kernels.inc includes nothing, so no inline function of a shared header is ever
// compiled with the wider instructions.
#include "core/common/simd.h"

namespace qnsim {

struct SpringView {
  const int* vertices;            // 2 per spring
  const double* rest_length;      // 1 per spring
  const int* region;              // 1 per spring
  const char* removed;            // 1 per spring
  const double* region_stiffness;  // k of each region
};

QNSIM_SIMD_BUILDS(spring_portable, spring_avx2,
    // Springs [begin, end) at positions x (3 per vertex): energy[s] = k/2 (|d| - l)^2 and force[s] =
    // k (|d| - l) d/|d| on its first vertex, d = x_a - x_b; 0 for removed springs.
    void springForces(const SpringView& springs, const double* x, int begin, int end, double* energy, double* force);)

}  // namespace qnsim
