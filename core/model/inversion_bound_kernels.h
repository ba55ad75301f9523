#pragma once
// The inversion bound's cubics (inversion_bound.h), compiled twice: portably, and for AVX2 without FMA,
// four tets a step, so that both builds give the same bits (chosen at run time by the CPU, as the
// linear solve's kernels are). Only plain types cross this boundary and inversion_bound_kernels.inc
// includes nothing, so no inline function of a shared header is ever compiled with wider instructions.
#include "core/common/simd.h"

namespace qnsim {

QNSIM_SIMD_BUILDS(inversion_portable, inversion_avx2,
    // det(Ds(x) + t Ds(d)) = c0 + c1 t + c2 t^2 + c3 t^3 for tets [begin, end), Ds the edges x_k - x_0
    // of a tet's four vertices (4 indices per tet in `vertices`; x and d 3 values per vertex):
    // c[4 (e - begin) + k] = c_k of tet e.
    void detCubics(const int* vertices, const double* x, const double* d, int begin, int end, double* c);)

}  // namespace qnsim
