#include "tests/test_util.h"

#include <algorithm>

#include <unistd.h>

#include <mutex>

namespace qnsim::test {
namespace {
std::mutex warning_mutex;
int expect_depth = 0;
std::vector<std::string> collected;
}  // namespace

void onWarning(const std::string& message) {
  std::lock_guard lock(warning_mutex);
  if (expect_depth > 0) {
    collected.push_back(message);
    return;
  }
  ADD_FAILURE() << "unexpected warning from the core: " << message;
}

ExpectWarnings::ExpectWarnings() {
  std::lock_guard lock(warning_mutex);
  if (expect_depth++ == 0) collected.clear();
}
ExpectWarnings::~ExpectWarnings() {
  std::lock_guard lock(warning_mutex);
  --expect_depth;
}
const std::vector<std::string>& ExpectWarnings::messages() const { return collected; }

double toleranceScale() {
  const char* s = std::getenv("QNSIM_TOL_SCALE");
  return s ? std::atof(s) : 1.0;
}

namespace {
std::filesystem::path processScratchRoot() {
  return std::filesystem::temp_directory_path() / ("qnsim_test_" + std::to_string(::getpid()));
}
}  // namespace

void removeScratchDirs() {
  std::error_code ec;
  std::filesystem::remove_all(processScratchRoot(), ec);
}

std::filesystem::path scratchDir(const std::string& name) {
  auto dir = processScratchRoot() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace qnsim::test
