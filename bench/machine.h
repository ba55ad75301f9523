#pragma once
#include <string>

namespace qnsim::bench {

// One line describing the machine and build: CPU model, cores, threads used, compiler, build type, sparse
// backend, date.
std::string describeMachine(int threads);

// The load average over 1, 5 and 15 minutes, "0.52 / 0.58 / 0.59": how busy the machine was.
std::string loadAverage();

}  // namespace qnsim::bench
