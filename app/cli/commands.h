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

#ifdef QNSIM_WITH_GUI
// The sandbox (gui_command.cpp, built with QNSIM_BUILD_GUI).
Command addGuiCommand(CLI::App& app);
bool guiDisplayAvailable();
// Restarts the program with OMP_WAIT_POLICY=PASSIVE unless it is set (see gui_command.cpp).
void preferPassiveOpenMpWait(int argc, const char* const* argv);
#endif

}  // namespace qnsim::cli
