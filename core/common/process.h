#pragma once
// Running external programs (tetgen) without a shell: no quoting pitfalls, output captured in a file.
#include <filesystem>
#include <string>
#include <vector>

namespace qnsim {

// The full path of an executable found on $PATH, or empty if there is none.
std::filesystem::path findProgram(const std::string& name);

struct ProcessResult {
  int exit_code = -1;  // valid when signal == 0
  int signal = 0;      // the signal that ended the program, or 0
};

// Runs argv (argv[0] a path) with stdin from /dev/null and stdout + stderr written to `log`.
// Throws qnsim::Error if the program cannot be started.
ProcessResult runProgram(const std::vector<std::string>& argv, const std::filesystem::path& log);

}  // namespace qnsim
