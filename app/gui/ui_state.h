#pragma once
// Everything the window keeps between frames: the loaded session, the latest snapshot, view options,
// the mouse interaction and the panels' settings. The panels read and edit it; the Simulation is only
// reached through the session's runner.
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/logic/compare_methods.h"
#include "app/gui/logic/pending_edits.h"
#include "app/gui/logic/session.h"
#include "app/gui/logic/unsaved_guard.h"
#include "render/renderer.h"
#include "view/camera.h"

namespace qnsim::gui {

struct Interaction {
  enum class Mode { None, Orbit, Pan, Vertex, Select, Cut };
  Mode mode = Mode::None;
  view::Vec2f last_mouse = view::Vec2f::Zero();
  int hovered = -1;   // surface vertex under the mouse
  int dragged = -1;   // vertex being dragged
  // The grabbed patch: the picked vertex and its neighbours, each pulled to the target plus its offset
  // with a weight falling off with the distance (a point load would only pull a spike out of the mesh).
  std::vector<int> patch;
  std::vector<view::Vec3f> offsets;
  std::vector<float> weights;
  view::Vec3f drag_target = view::Vec3f::Zero();
  view::Vec3f drag_plane_point = view::Vec3f::Zero();
  float drag_stiffness_scale = 1.0f;  // times the default (see dragStiffness)
  bool selecting = false;
  view::Vec2f select_from = view::Vec2f::Zero(), select_to = view::Vec2f::Zero();
  std::vector<int> selection;
  float pin_stiffness_scale = 1.0f;
  bool cut_tool = false;  // a left drag draws the line to cut along instead of grabbing or orbiting
  view::Vec2f cut_from = view::Vec2f::Zero(), cut_to = view::Vec2f::Zero();
};

struct RecordConfig {
  int frames = 30;
  char base[256] = "qnsim_convergence";
  char obj_folder[256] = "qnsim_export";
  bool obj_export = false;
  int export_format = 0;  // obj, vtu, glb (ExportFormat)
  char state_path[256] = "qnsim_state.json";
  char screenshot[256] = "qnsim_screenshot.png";
  char compare_base[256] = "qnsim_compare";  // the Compare tab's export: .csv, .svg and .png
};

struct UiState {
  std::unique_ptr<Session> session;
  std::shared_ptr<const Snapshot> snapshot;
  PendingEdits pending;  // edits sent that the snapshot does not show yet
  std::shared_ptr<const view::SurfaceView> drawn_surface;  // the surface whose triangles the renderer has
  std::vector<Collider> drawn_colliders;                   // the colliders as the renderer has them
  view::OrbitCamera camera;
  render::ViewStyle style;
  ColorMode color_mode = ColorMode::Region;
  bool show_handles = true;
  bool show_cage = false;  // draw the simulation surfaces instead of the render meshes (Body::render)
  Interaction interaction;
  CompareConfig compare;
  std::string compare_error;  // why the last comparison could not start or be exported
  std::string compare_note;   // what the last export wrote
  RecordConfig record;
  bool real_time = true, reference = false;

  char open_path[512] = "";
  TetgenOptions tetgen;  // how Open fills a surface file with tets
  char save_path[512] = "";    // where Save scene writes (Ctrl+S)
  bool save_removed = false;   // with the removed (torn and cut) elements
  UnsavedGuard unsaved_guard;  // asks before an edited scene is closed or replaced
  std::vector<std::string> recent, catalog;
  bool loading = false;
  std::string load_error;
  std::deque<std::string> log;  // newest last
  std::chrono::steady_clock::time_point last_message_time;
  size_t messages_seen = 0;

  struct KeyPress {
    int key, mods;  // GLFW_KEY_*, GLFW_MOD_*
  };
  std::vector<KeyPress> key_presses;  // pressed since the last frame (ImGui 1.86 drops a press and release
                                      // that fall in one frame, which slow software frames make common)
  std::string select_tab;  // selected on the next frame (lower case tab name)
  std::string screenshot_request;  // saved after the next frame is drawn
  float ui_fps = 0, render_ms = 0;
  float field_range = 0;  // smoothed colour range of the stress / strain field
  view::Vec2f viewport_size = view::Vec2f(1, 1);
  std::function<void(const std::string&)> open;  // asks the window to load a file in the background
  std::function<void()> frame_camera;
};

// Adds a line to the window's log (and stderr, for scripted runs).
void logMessage(UiState& ui, const std::string& message);

// Whether the session has edits that Save scene has not written.
bool unsavedEdits(const UiState& ui);
// Writes the session's scene with its edits to ui.save_path; true when written.
bool saveScene(UiState& ui);

// The drag spring stiffness: about the diagonal of A for a vertex (mass / h^2 times a factor), so
// that the dragged vertex follows the mouse closely without making the frame's system stiff.
double dragStiffness(const UiState& ui);
double pinStiffness(const UiState& ui);

}  // namespace qnsim::gui
