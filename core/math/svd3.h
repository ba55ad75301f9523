#pragma once
// Inversion-aware singular value decomposition of a 3x3 matrix (Irving et al. 2004):
// F = U diag(sigma) V^T with U, V proper rotations (det = +1), sigma1 >= sigma2 >= |sigma3|, and the
// reflection of an inverted element (det F < 0) moved into the sign of sigma3.
#include "qnsim/types.h"

namespace qnsim {

struct Svd3 {
  Mat3 U;
  Vec3 sigma;
  Mat3 V;
};

// Jacobi eigen-decomposition of F^T F for V, then a QR of F V for U and sigma (McAdams et al. 2011,
// in double precision with a convergence test instead of a fixed sweep count).
Svd3 svd3(const Mat3& F);

// The SVDs of F[0..count) into out[0..count): the same results, faster, as independent matrices are
// decomposed side by side.
void svd3(const Mat3* F, int count, Svd3* out);

}  // namespace qnsim
