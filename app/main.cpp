// qnsim: headless subcommands (run, params, version) and, where built, the interactive sandbox.
#include <cstdio>
#include <exception>
#include <string>

#include "app/cli/commands.h"
#include "core/common/error.h"

int main(int argc, char** argv) {
  CLI::App app{"qnsim: real-time simulation of hyperelastic solids and cloth with the quasi-Newton method of Liu, Bouaziz and Kavan "
               "(TOG 2017), with Projective Dynamics, Newton and gradient descent beside it."};
  app.require_subcommand(1);
  const auto run = qnsim::cli::addRunCommand(app);
  const auto params = qnsim::cli::addParamsCommand(app);
  const auto version = qnsim::cli::addVersionCommand(app);
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
  } catch (const qnsim::Error& e) {
    std::fprintf(stderr, "qnsim: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "qnsim: internal error: %s\n", e.what());
    return 1;
  }
  return 0;
}
