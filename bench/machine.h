#pragma once
#include <string>

namespace qnsim::bench {

// One line describing the machine and build: CPU model, cores, compiler, sparse backend, date.
std::string describeMachine(int threads);

}  // namespace qnsim::bench
