#include "core/objective/tet_kernels.h"

namespace qnsim {

const TetKernels* tetKernels() {
  static const TetKernels with_avx512 = [] {
    TetKernels kernels = tet_avx2::kernels;
    kernels.strainPolynomialPass = tet_avx512::kernels.strainPolynomialPass;
    return kernels;
  }();
  if (avx512Available()) return &with_avx512;
  return avx2Available() ? &tet_avx2::kernels : nullptr;
}

}  // namespace qnsim
