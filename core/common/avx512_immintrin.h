#pragma once
// <immintrin.h> for a translation unit compiled with -mavx512f. GCC 12's AVX-512 header makes its
// undefined vectors from themselves (GCC bug 105593), which -Wuninitialized reports wherever they are
// inlined; the warning is silenced in the header's lines only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
