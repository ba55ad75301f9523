#pragma once
// Reproducible pseudo-random values without state: the same (seed, key) gives the same value on every
// platform and thread count.
#include <cstdint>

namespace qnsim {

// A value in [-1, 1] for each (seed, key), from a 64-bit mix of both (SplitMix64).
inline double hashedUnit(int seed, int64_t key) {
  uint64_t z = (static_cast<uint64_t>(seed) << 32) ^ static_cast<uint64_t>(key) ^ 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return 2.0 * static_cast<double>(z >> 11) / static_cast<double>(1ull << 53) - 1.0;
}

}  // namespace qnsim
