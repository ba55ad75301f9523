#pragma once
// The sandbox window (private to app/gui): sandbox.cpp opens the window, loads scenes and draws a
// frame; sandbox_runs.cpp holds its loops (interactive, scripted screenshot, benchmark).
#include <imgui.h>

#include <memory>
#include <string>

#include "app/gui/logic/scene_opener.h"
#include "app/gui/sandbox.h"
#include "app/gui/ui_state.h"
#include "app/gui/viewport.h"
#include "render/renderer.h"

struct GLFWwindow;

namespace qnsim::gui {

// The left and right panel columns and the 3D view between them, in window pixels.
struct Layout {
  ImVec2 left_pos, left_size, right_pos, right_size;
  ViewRect view;
};
Layout layoutFor(const ImVec2& window);

class Sandbox {
 public:
  explicit Sandbox(const SandboxOptions& options);
  ~Sandbox();
  int run();

 private:
  void openWindow();
  void openAsync(const std::string& path);
  void pollLoader(bool wait = false);
  void adopt(std::unique_ptr<Session> session);
  void frameCamera();
  void pollMessages();
  void showTitle();
  bool closing();
  void drawFrame();
  void scriptedFrame(int frame);
  void scriptedDrag(int frame, int start);
  void scriptedCut();
  void scriptedEdits();
  void presentFrame();
  bool nothingToDraw(bool timed_out) const;
  int runScripted();
  int runInteractive();

  SandboxOptions options_;
  const bool scripted_;
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<render::Renderer> renderer_;
  UiState ui_;
  SceneOpener opener_;
  Layout layout_;
  view::Vec2f script_pixel_ = view::Vec2f::Zero();  // where the scripted drag grabbed
  std::string title_;                              // the window's title as last set
  bool close_confirmed_ = false;                   // closing, unsaved edits saved or discarded
};

}  // namespace qnsim::gui
