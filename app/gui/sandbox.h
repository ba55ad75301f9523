#pragma once
// The interactive sandbox: a GLFW window with the 3D view and the Dear ImGui panels.
#include <string>
#include <vector>

#include "core/mesh/tetrahedralize.h"

namespace qnsim::gui {

struct SandboxOptions {
  std::string scene;                   // empty: the default scene (app/startup_scene.h)
  std::vector<std::string> overrides;  // KEY=VALUE, as `qnsim run --set`
  int frames = 60;                     // with `screenshot`: frames simulated before the picture
  std::string screenshot;              // non-empty: scripted run, save the window as PNG, exit
  std::string script = "drag";         // the scripted run's mouse from frame frames/3: "drag" a vertex, "cut" across the model, "edit" the scene, "none"
  std::string open;                    // with `screenshot`: a file opened half-way through, as the Open button does
  int width = 1280, height = 720;
  int msaa = -1;                       // samples per pixel (0 = off); -1: 4, or 0 on software renderers (they shade each sample)
  std::string tab;                     // the analysis tab shown first (convergence, compare, line search, timings, materials)
  std::string color = "region";        // region, stress, strain or inversion
  bool benchmark = false;              // run as a user would (simulation thread, unpaced) for `frames`, print the rates
  TetgenOptions tetgen;                // how a surface file is filled (the Open panel's starting values)
};

// Runs the window until it is closed (or the scripted screenshot is saved). Returns the exit code.
int runSandbox(const SandboxOptions& options);

// True when a window can be opened (an X11 or Wayland display that GLFW can initialise).
bool displayAvailable();

}  // namespace qnsim::gui
