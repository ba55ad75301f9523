// qnsim gui [SCENE]: the interactive sandbox; with --screenshot, a scripted run that saves a picture.
#include "app/cli/commands.h"
#include "app/cli/tetgen_flags.h"
#include "app/gui/logic/fields.h"
#include "app/gui/sandbox.h"
#include "app/startup_scene.h"

namespace qnsim::cli {

Command addGuiCommand(CLI::App& app) {
  auto options = std::make_shared<gui::SandboxOptions>();
  auto* cmd = app.add_subcommand("gui", "Open the interactive sandbox (needs a display).");
  cmd->add_option("scene", options->scene, std::string("Scene file (.json) or mesh (default: ") + kStartupScene + ")");
  cmd->add_option("--frames", options->frames, "With --screenshot: frames to simulate (one drawn per frame) before the picture; with --benchmark: frames to run")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--screenshot", options->screenshot,
                  "Simulate --frames frames while a scripted mouse drags a surface vertex, save the window as this PNG and exit; "
                  "prints the frame rate including rendering");
  cmd->add_option("--script", options->script,
                  "With --screenshot: what the scripted mouse does from frame N/3 on: drag the surface vertex nearest the model's "
                  "centre, cut along a vertical line through the middle of the model with the cut tool, edit the scene (pin the "
                  "model's top vertices, change the L-BFGS window, move the first collider, then undo the move: the Edits panel), "
                  "or nothing (none)")
      ->check(CLI::IsMember({"drag", "cut", "edit", "none"}));
  cmd->add_option("--open", options->open,
                  "With --screenshot: half-way through, open this scene or mesh file as the Open button does (one that cannot "
                  "be opened is logged and the scene runs on)");
  cmd->add_option("--set", options->overrides, "Override a parameter: KEY=VALUE (see `qnsim params`)")->allow_extra_args(false);
  cmd->add_option("--width", options->width, "Window width in pixels")->check(CLI::Range(320, 8192));
  cmd->add_option("--height", options->height, "Window height in pixels")->check(CLI::Range(240, 8192));
  cmd->add_option("--tab", options->tab, "Analysis tab to show first; with --screenshot and 'compare', the compare action runs first")
      ->check(CLI::IsMember({"convergence", "compare", "line search", "timings", "materials"}));
  cmd->add_option("--color", options->color, "Colour the model by material region, stress, strain or inversion")
      ->check(CLI::IsMember(gui::colorModeKeys()));
  cmd->add_option("--msaa", options->msaa, "Multisample anti-aliasing samples per pixel (0 = off; default 4, or 0 on software renderers)")
      ->check(CLI::Range(0, 16));
  addTetgenFlags(cmd, options->tetgen);
  cmd->add_flag("--benchmark", options->benchmark,
                "Run the window as a user would (simulation on its own thread, not paced to real time) until --frames frames are "
                "simulated, then print the simulated and drawn frames per second and exit");
  return [options] { return gui::runSandbox(*options); };
}

bool guiDisplayAvailable() { return gui::displayAvailable(); }

}  // namespace qnsim::cli
