// Every file of every fuzz corpus (tests/fuzz/corpus/<target>/: the seeds and the regression-* inputs
// of past findings) through the fuzz target's own function, so each finding stays fixed in CI without
// libFuzzer. The target swallows qnsim::Error; anything else escapes and fails the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/common/files.h"
#include "tests/fuzz/targets.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

namespace fs = std::filesystem;

fs::path corpusDir() { return test::sourceDir() / "tests" / "fuzz" / "corpus"; }

std::vector<std::string> targetNames() {
  std::vector<std::string> names;
  for (const fuzz::Target& t : fuzz::targets()) names.emplace_back(t.name);
  return names;
}

class FuzzCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(FuzzCorpus, EveryInputIsReadOrRejectedWithAnError) {
  const fuzz::Target& target = fuzz::target(GetParam());
  const fs::path dir = corpusDir() / GetParam();
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << dir << " holds no seed";
  test::ExpectWarnings warnings;  // mesh repairs are reported as warnings
  for (const fs::path& file : files) {
    // readFileBytes refuses empty files, which are fine inputs.
    const std::string bytes = fs::file_size(file) == 0 ? std::string() : readFileBytes(file);
    EXPECT_NO_THROW(target.run(bytes)) << file;
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzCorpus, ::testing::ValuesIn(targetNames()),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

// A corpus folder without a target (a typo, a renamed target) would silently not be replayed.
TEST(FuzzCorpusFolders, EachBelongsToATarget) {
  for (const fs::directory_entry& entry : fs::directory_iterator(corpusDir()))
    EXPECT_NO_THROW(fuzz::target(entry.path().filename().string())) << entry.path();
}

}  // namespace
}  // namespace qnsim
