// qnsim: headless subcommands (run, params, version, experiment) and, where built, the interactive sandbox.
// Without a subcommand it opens the sandbox on the default scene when a display is available, and
// otherwise runs that scene headless (as `qnsim run`), so it works on machines without a display.
#include <cstdio>
#include <exception>
#include <string>

#include "app/cli/commands.h"
#include "app/startup_scene.h"
#include "qnsim/error.h"

namespace {
int dispatch(int argc, const char* const* argv);

// No subcommand: the sandbox when a window can be opened, else the same scene headless.
int runDefault(const char* program) {
  const std::string scene = qnsim::startupScenePath();
#ifdef QNSIM_WITH_GUI
  if (qnsim::cli::guiDisplayAvailable()) {
    const char* args[] = {program, "gui", scene.c_str()};
    return dispatch(3, args);
  }
  std::fprintf(stderr, "qnsim: no display, so running %s headless (as qnsim run); qnsim --help lists the commands\n", scene.c_str());
#else
  std::fprintf(stderr, "qnsim: built without the sandbox, so running %s headless (as qnsim run)\n", scene.c_str());
#endif
  const char* args[] = {program, "run", scene.c_str()};
  return dispatch(3, args);
}

int dispatch(int argc, const char* const* argv) {
  CLI::App app{"qnsim: real-time simulation of hyperelastic solids and cloth with the quasi-Newton method of Liu, Bouaziz and Kavan "
               "(TOG 2017), with Projective Dynamics, Newton and gradient descent beside it."};
  app.require_subcommand(0, 1);
  const auto run = qnsim::cli::addRunCommand(app);
  const auto params = qnsim::cli::addParamsCommand(app);
  const auto version = qnsim::cli::addVersionCommand(app);
  const auto experiment = qnsim::cli::addExperimentCommand(app);
  const auto mesh = qnsim::cli::addMeshCommand(app);
#ifdef QNSIM_WITH_GUI
  const auto gui = qnsim::cli::addGuiCommand(app);
#endif
  if (argc > 1 && argv[1][0] != '-') {  // CLI11 would only say that a subcommand is required
    bool known = false;
    std::string names;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known |= sub->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::fprintf(stderr, "qnsim: unknown command '%s' (commands: %s; see qnsim --help)\n", argv[1], names.c_str());
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    if (app.got_subcommand("run")) return run();
    if (app.got_subcommand("params")) return params();
    if (app.got_subcommand("version")) return version();
    if (app.got_subcommand("experiment")) return experiment();
    if (app.got_subcommand("mesh")) return mesh();
#ifdef QNSIM_WITH_GUI
    if (app.got_subcommand("gui")) return gui();
#endif
  } catch (const qnsim::Error& e) {
    std::fprintf(stderr, "qnsim: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "qnsim: internal error: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return argc == 1 ? runDefault(argv[0]) : dispatch(argc, argv); }
