// The libFuzzer entry point of one target, chosen at compile time (QNSIM_FUZZ_TARGET, see
// CMakeLists.txt). Only the fuzz build (-DQNSIM_FUZZ=ON) compiles this file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/common/log.h"
#include "tests/fuzz/targets.h"

namespace {
const qnsim::fuzz::Target* fuzz_target = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz_target = &qnsim::fuzz::target(QNSIM_FUZZ_TARGET);
  qnsim::setWarningHandler([](const std::string&) {});  // repair notes on stderr would only slow the run
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_target->run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
