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
Command addExperimentCommand(CLI::App& app);
Command addMeshCommand(CLI::App& app);

#ifdef QNSIM_WITH_GUI
// The sandbox (gui_command.cpp, built with QNSIM_BUILD_GUI).
Command addGuiCommand(CLI::App& app);
bool guiDisplayAvailable();
#endif

}  // namespace qnsim::cli
