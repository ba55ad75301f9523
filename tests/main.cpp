// Test entry point. Any warning the core emits fails the running test, unless the test expects it
// (ExpectWarnings in test_util.h), so silent misbehaviour cannot hide behind a log line.
#include <gtest/gtest.h>

#include "core/common/log.h"
#include "tests/test_util.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  qnsim::setWarningHandler([](const std::string& message) { qnsim::test::onWarning(message); });
  const int status = RUN_ALL_TESTS();
  qnsim::test::removeScratchDirs();  // CTest runs one process per test: each cleans up after itself
  return status;
}
