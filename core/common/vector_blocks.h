#pragma once
// Passes over long vectors (3n positions, gradients, directions) in fixed blocks of entries, in
// parallel. The blocks depend only on the length, never on the thread count, so per-block sums added
// in block order round off alike on any number of threads.
#include <algorithm>

#include "core/common/parallel.h"

namespace qnsim {

constexpr long kVectorBlock = 2048;  // entries per block

inline int vectorBlockCount(long n) { return static_cast<int>((n + kVectorBlock - 1) / kVectorBlock); }

// body(begin, length) for every block of [0, n), in parallel, a block per chunk so that the threads
// share the blocks evenly (two per chunk gave the cloth's ten blocks as five chunks, three for one
// thread and two for the other). A last block shorter than half of one rides in the chunk before
// it: a chunk of a few entries is not worth waking a thread for.
template <class Body>
void forVectorBlocks(long n, const Body& body) {
  const int blocks = vectorBlockCount(n);
  const bool short_last = blocks > 1 && n - (blocks - 1) * kVectorBlock < kVectorBlock / 2;
  const int chunks = blocks - short_last;
  parallelFor(chunks, 1, [&](int first, int last) {
    for (int b = first; b < (last == chunks ? blocks : last); ++b) body(b * kVectorBlock, std::min(kVectorBlock, n - b * kVectorBlock));
  });
}

}  // namespace qnsim
