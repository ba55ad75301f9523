#pragma once
// Passes over long vectors (3n positions, gradients, directions) in fixed blocks of entries, in
// parallel. The blocks depend only on the length, never on the thread count, so per-block sums added
// in block order round off alike on any number of threads.
#include <algorithm>

#include "core/common/parallel.h"

namespace qnsim {

constexpr long kVectorBlock = 2048;  // entries per block
constexpr int kBlocksPerChunk = 2;   // blocks per parallel chunk: the cloth's 20k entries make five chunks

inline int vectorBlockCount(long n) { return static_cast<int>((n + kVectorBlock - 1) / kVectorBlock); }

// body(begin, length) for every block of [0, n), in parallel.
template <class Body>
void forVectorBlocks(long n, const Body& body) {
  parallelFor(vectorBlockCount(n), kBlocksPerChunk, [&](int first, int last) {
    for (int b = first; b < last; ++b) body(b * kVectorBlock, std::min(kVectorBlock, n - b * kVectorBlock));
  });
}

}  // namespace qnsim
