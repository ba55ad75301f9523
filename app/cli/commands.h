#pragma once
// Subcommands of the qnsim program. Each registers its options on the CLI11 app and returns the
// function that runs it (after parsing), which returns the process exit code.
#include <CLI/CLI.hpp>
#include <functional>

namespace qnsim::cli {

using Command = std::function<int()>;

Command addRunCommand(CLI::App& app);
Command addParamsCommand(CLI::App& app);
Command addVersionCommand(CLI::App& app);

}  // namespace qnsim::cli
