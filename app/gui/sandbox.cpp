#include "app/gui/sandbox.h"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <chrono>
#include <cstdio>

#include "app/gui/panel_analysis.h"
#include "app/gui/panel_controls.h"
#include "app/gui/panel_edits.h"
#include "app/gui/sandbox_window.h"
#include "app/gui/style.h"
#include "app/startup_scene.h"
#include "core/common/timer.h"
#include "qnsim/error.h"

namespace qnsim::gui {
namespace {

constexpr float kLeftWidth = 370.0f, kRightWidth = 500.0f;

// Multisampling multiplies the fragment work of software renderers (llvmpipe shades every sample), so
// the automatic choice probes the renderer with a hidden window first.
int autoSamples() {
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* probe = glfwCreateWindow(64, 64, "probe", nullptr, nullptr);
  glfwWindowHint(GLFW_VISIBLE, GLFW_TRUE);
  if (!probe) return 0;
  glfwMakeContextCurrent(probe);
  int samples = 4;
  if (gladLoadGL(glfwGetProcAddress)) {
    const std::string renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    if (renderer.find("llvmpipe") != std::string::npos || renderer.find("softpipe") != std::string::npos) samples = 0;
  }
  glfwMakeContextCurrent(nullptr);
  glfwDestroyWindow(probe);
  return samples;
}

}  // namespace

Layout layoutFor(const ImVec2& window) {
  Layout l;
  const float left = std::min(kLeftWidth, 0.3f * window.x), right = std::min(kRightWidth, 0.35f * window.x);
  l.left_pos = {0, 0};
  l.left_size = {left, window.y};
  l.right_pos = {window.x - right, 0};
  l.right_size = {right, window.y};
  l.view = {left, 0, std::max(window.x - left - right, 1.0f), window.y};
  return l;
}

void Sandbox::openWindow() {
  if (!glfwInit()) throw error("cannot initialise GLFW (no display?)");
  const int samples = options_.msaa >= 0 ? options_.msaa : autoSamples();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, samples);
  glfwWindowHint(GLFW_STENCIL_BITS, 8);
  if (scripted_) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  window_ = glfwCreateWindow(options_.width, options_.height, "qnsim sandbox", nullptr, nullptr);
  if (!window_) throw error("cannot open an OpenGL 3.3 core window");
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(scripted_ ? 0 : 1);
  if (!gladLoadGL(glfwGetProcAddress)) throw error("cannot load the OpenGL 3.3 functions");
  glfwSetWindowUserPointer(window_, this);
  glfwSetDropCallback(window_, [](GLFWwindow* w, int count, const char** paths) {
    if (count > 0) static_cast<Sandbox*>(glfwGetWindowUserPointer(w))->ui_.open(paths[0]);
  });
  // Installed before ImGui's backend, which chains to it.
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int mods) {
    if (action == GLFW_PRESS) static_cast<Sandbox*>(glfwGetWindowUserPointer(w))->ui_.key_presses.push_back({key, mods});
  });
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout follows the window; nothing to remember
  applyStyle();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  renderer_ = std::make_unique<render::Renderer>();
}

// Scripted runs step their sessions themselves; interactive ones give each its own thread.
Sandbox::Sandbox(const SandboxOptions& options)
    : options_(options), scripted_(!options.screenshot.empty()), opener_(!scripted_, [] { glfwPostEmptyEvent(); }) {
  ui_.tetgen = options.tetgen;
}

Sandbox::~Sandbox() {
  ui_.session.reset();  // joins the simulation thread
  opener_.poll(true);   // a load still running ends before GLFW does
  renderer_.reset();
  if (window_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window_);
  }
  glfwTerminate();
}

// The command line's overrides apply to the first scene only.
void Sandbox::openAsync(const std::string& path) {
  const auto refused = opener_.open(path, ui_.session ? std::vector<std::string>{} : options_.overrides, ui_.tetgen);
  if (refused) return logMessage(ui_, *refused);
  ui_.loading = true;
  ui_.load_error.clear();
}

void Sandbox::pollLoader(bool wait) {
  std::optional<OpenOutcome> outcome = opener_.poll(wait);
  if (!outcome) return;
  ui_.loading = false;
  if (outcome->session) return adopt(std::move(outcome->session));
  ui_.load_error = outcome->error;  // the current scene runs on untouched
  logMessage(ui_, outcome->error);
}

void Sandbox::adopt(std::unique_ptr<Session> session) {
  ui_.interaction = {};
  ui_.session = std::move(session);
  ui_.snapshot = ui_.session->runner->snapshot();
  ui_.pending = {};
  ui_.messages_seen = 0;
  ui_.field_range = 0;
  renderer_->setScene(ui_.session->colliders, ui_.session->rest);
  ui_.drawn_colliders = ui_.session->colliders;
  ui_.drawn_surface.reset();  // updateRenderer gives the renderer the snapshot's surface
  ui_.session->runner->onPublish([] { glfwPostEmptyEvent(); });  // wakes the window for each new frame
  ui_.session->runner->setRealTime(ui_.real_time);
  ui_.session->runner->setColorMode(ui_.color_mode);
  ui_.session->runner->setReference(ui_.reference);
  std::erase(ui_.recent, ui_.session->path);
  ui_.recent.insert(ui_.recent.begin(), ui_.session->path);
  if (ui_.recent.size() > 8) ui_.recent.pop_back();
  std::snprintf(ui_.open_path, sizeof ui_.open_path, "%s", ui_.session->path.c_str());
  std::snprintf(ui_.save_path, sizeof ui_.save_path, "%s", defaultSavePath(ui_.session->path).c_str());
  frameCamera();
  ui_.session->runner->setPlaying(true);
  logMessage(ui_, "opened " + ui_.session->path + " (" + std::to_string(ui_.session->all_vertices.size()) + " vertices)");
}

void Sandbox::frameCamera() {
  if (!ui_.session) return;
  const CameraDesc& c = ui_.session->camera;
  view::Vec3f lo, hi;
  view::bounds(ui_.snapshot->x, lo, hi);
  const float aspect = layout_.view.width / std::max(layout_.view.height, 1.0f);
  if (c.given) {  // the scene's view, moved back if the model does not fit this (narrower) view
    ui_.camera.fov_y = static_cast<float>(c.fov_degrees * M_PI / 180.0);
    ui_.camera.lookAt(c.eye.cast<float>(), c.target.cast<float>());
    view::OrbitCamera fit = ui_.camera;
    fit.frame(lo, hi, aspect);
    // Seen from the scene's target instead of the box centre, the box reaches out to `reach`.
    const float reach = std::max((lo - ui_.camera.target).norm(), (hi - ui_.camera.target).norm());
    const float needed = fit.distance * reach / std::max(0.5f * (hi - lo).norm(), 1e-6f);
    ui_.camera.distance = std::max(ui_.camera.distance, std::min(needed, 2.0f * fit.distance));
  } else {  // the model and the rigid shapes around it
    for (const Collider& collider : ui_.session->colliders) {
      const view::DrawMesh mesh = view::colliderMesh(collider, 8);
      for (size_t i = 0; i + 2 < mesh.positions.size(); i += 3) {
        const view::Vec3f p(mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]);
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
      }
    }
    ui_.camera.yaw = 0.5f;
    ui_.camera.pitch = 0.35f;
    ui_.camera.frame(lo, hi, aspect);
  }
}

// "qnsim sandbox - NAME", with a mark while there are unsaved edits.
void Sandbox::showTitle() {
  std::string title = "qnsim sandbox";
  if (ui_.session) title += " - " + ui_.session->name + (unsavedEdits(ui_) ? " *" : "");
  if (title == title_) return;
  title_ = title;
  glfwSetWindowTitle(window_, title.c_str());
}

// Asked to close with unsaved edits, the window asks first (ui_.unsaved_guard).
bool Sandbox::closing() {
  if (glfwWindowShouldClose(window_) && !close_confirmed_) {
    glfwSetWindowShouldClose(window_, GLFW_FALSE);
    ui_.unsaved_guard.request(unsavedEdits(ui_), "close the window", [this] { close_confirmed_ = true; });
  }
  return close_confirmed_;
}

void Sandbox::pollMessages() {
  if (!ui_.session) return;
  for (const std::string& m : ui_.session->runner->messages(ui_.messages_seen)) {
    logMessage(ui_, m);
    ++ui_.messages_seen;
  }
}

void Sandbox::drawFrame() {
  int width = 0, height = 0, fb_width = 0, fb_height = 0;
  glfwGetWindowSize(window_, &width, &height);
  glfwGetFramebufferSize(window_, &fb_width, &fb_height);
  layout_ = layoutFor(ImVec2(static_cast<float>(width), static_cast<float>(height)));
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  ui_.viewport_size = view::Vec2f(layout_.view.width, layout_.view.height);
  drawControlPanel(ui_, layout_.left_pos, layout_.left_size);
  drawAnalysisPanel(ui_, layout_.right_pos, layout_.right_size);
  drawUnsavedQuestion(ui_);
  handleViewInput(ui_, layout_.view);
  drawViewOverlay(ui_, layout_.view);
  ImGui::Render();
  showTitle();

  const Timer render_timer;
  glViewport(0, 0, fb_width, fb_height);
  glClearColor(0.11f, 0.12f, 0.14f, 1.0f);  // the panels' background (style.cpp)
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  if (ui_.session && ui_.snapshot) {
    const float sx = static_cast<float>(fb_width) / std::max(width, 1), sy = static_cast<float>(fb_height) / std::max(height, 1);
    const render::Viewport vp{static_cast<int>(layout_.view.x * sx), 0, static_cast<int>(layout_.view.width * sx),
                              static_cast<int>(layout_.view.height * sy)};
    updateRenderer(ui_, *renderer_);
    renderer_->draw(ui_.camera, vp, ui_.style);
  }
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (!ui_.screenshot_request.empty()) {
    try {
      render::saveFramebufferPng(ui_.screenshot_request, 0, 0, fb_width, fb_height);
      logMessage(ui_, "saved the screenshot " + ui_.screenshot_request);
    } catch (const Error& e) {
      logMessage(ui_, e.what());
    }
    ui_.screenshot_request.clear();
  }
  glFinish();
  ui_.render_ms = static_cast<float>(render_timer.ms());
}

bool displayAvailable() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!x11 || !*x11) && (!wayland || !*wayland)) return false;
  glfwSetErrorCallback(nullptr);
  if (!glfwInit()) return false;
  glfwTerminate();
  return true;
}

int runSandbox(const SandboxOptions& options) {
  SandboxOptions resolved = options;
  if (resolved.scene.empty()) resolved.scene = startupScenePath();
  glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "qnsim gui: GLFW error %d: %s\n", code, text); });
  Sandbox sandbox(resolved);
  return sandbox.run();
}

void logMessage(UiState& ui, const std::string& message) {
  ui.log.push_back(message);
  ui.last_message_time = std::chrono::steady_clock::now();
  if (ui.log.size() > 200) ui.log.pop_front();
  std::fprintf(stderr, "qnsim gui: %s\n", message.c_str());
}

bool unsavedEdits(const UiState& ui) { return ui.session && ui.snapshot && ui.snapshot->unsaved; }

bool saveScene(UiState& ui) {
  if (!ui.session || !ui.save_path[0]) return false;
  const bool saved = ui.session->runner->saveScene(ui.save_path, ui.save_removed);
  ui.snapshot = ui.session->runner->snapshot();
  return saved;
}

double dragStiffness(const UiState& ui) { return (ui.session ? ui.session->typical_diagonal : 1.0) * ui.interaction.drag_stiffness_scale; }
double pinStiffness(const UiState& ui) { return 100.0 * (ui.session ? ui.session->typical_diagonal : 1.0) * ui.interaction.pin_stiffness_scale; }

}  // namespace qnsim::gui
