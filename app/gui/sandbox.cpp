#include "app/gui/sandbox.h"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <thread>

#include "app/default_scene.h"
#include "app/gui/panels.h"
#include "app/gui/style.h"
#include "app/gui/viewport.h"
#include "core/common/error.h"
#include "core/common/timer.h"

namespace qnsim::gui {
namespace {

constexpr float kLeftWidth = 370.0f, kRightWidth = 500.0f;

struct Layout {
  ImVec2 left_pos, left_size, right_pos, right_size;
  ViewRect view;
};

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

class Sandbox {
 public:
  explicit Sandbox(const SandboxOptions& options) : options_(options), scripted_(!options.screenshot.empty()) {}
  ~Sandbox();
  int run();

 private:
  void openWindow();
  void openAsync(const std::string& path);
  void pollLoader();
  void adopt(std::unique_ptr<Session> session);
  void frameCamera();
  void pollMessages();
  void drawFrame();
  void scriptedFrame(int frame);
  void presentFrame();
  int runScripted();
  int runInteractive();

  SandboxOptions options_;
  const bool scripted_;
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<render::Renderer> renderer_;
  UiState ui_;
  std::future<std::unique_ptr<Session>> loader_;
  std::string loading_path_;
  Layout layout_;
  render::Vec2f script_pixel_ = render::Vec2f::Zero();  // where the scripted drag grabbed
};

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
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) {
    if (action == GLFW_PRESS) static_cast<Sandbox*>(glfwGetWindowUserPointer(w))->ui_.key_presses.push_back(key);
  });
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout follows the window; nothing to remember
  applyStyle();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  renderer_ = std::make_unique<render::Renderer>();
}

Sandbox::~Sandbox() {
  ui_.session.reset();  // joins the simulation thread
  if (loader_.valid()) loader_.wait();
  renderer_.reset();
  if (window_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window_);
  }
  glfwTerminate();
}

void Sandbox::openAsync(const std::string& path) {
  if (loader_.valid()) {
    logMessage(ui_, "still loading " + loading_path_ + "; try again in a moment");
    return;
  }
  loading_path_ = path;
  ui_.loading = true;
  ui_.load_error.clear();
  const bool threaded = !scripted_;
  const std::vector<std::string> overrides = ui_.session ? std::vector<std::string>{} : options_.overrides;
  loader_ = std::async(std::launch::async, [path, overrides, threaded] {
    struct Wake {  // also when loadSession throws
      ~Wake() { glfwPostEmptyEvent(); }
    } wake;
    return loadSession(path, overrides, threaded);
  });
}

void Sandbox::pollLoader() {
  if (!loader_.valid() || loader_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  ui_.loading = false;
  try {
    adopt(loader_.get());
  } catch (const std::exception& e) {  // the current scene keeps running
    ui_.load_error = e.what();
    logMessage(ui_, std::string("cannot open ") + loading_path_ + ": " + e.what());
  }
}

void Sandbox::adopt(std::unique_ptr<Session> session) {
  ui_.interaction = {};
  ui_.session = std::move(session);
  ui_.snapshot = ui_.session->runner->snapshot();
  ui_.messages_seen = 0;
  ui_.field_range = 0;
  renderer_->setScene(ui_.session->view, ui_.session->colliders, ui_.session->rest);
  ui_.session->runner->onPublish([] { glfwPostEmptyEvent(); });  // wakes the window for each new frame
  ui_.session->runner->setRealTime(ui_.real_time);
  ui_.session->runner->setColorMode(ui_.color_mode);
  ui_.session->runner->setReference(ui_.reference);
  std::erase(ui_.recent, ui_.session->path);
  ui_.recent.insert(ui_.recent.begin(), ui_.session->path);
  if (ui_.recent.size() > 8) ui_.recent.pop_back();
  std::snprintf(ui_.open_path, sizeof ui_.open_path, "%s", ui_.session->path.c_str());
  frameCamera();
  ui_.session->runner->setPlaying(true);
  logMessage(ui_, "opened " + ui_.session->path + " (" + std::to_string(ui_.session->all_vertices.size()) + " vertices)");
}

void Sandbox::frameCamera() {
  if (!ui_.session) return;
  const CameraDesc& c = ui_.session->camera;
  render::Vec3f lo, hi;
  render::bounds(ui_.snapshot->x, lo, hi);
  const float aspect = layout_.view.width / std::max(layout_.view.height, 1.0f);
  if (c.given) {  // the scene's view, moved back if the model does not fit this (narrower) view
    ui_.camera.fov_y = static_cast<float>(c.fov_degrees * M_PI / 180.0);
    ui_.camera.lookAt(c.eye.cast<float>(), c.target.cast<float>());
    render::OrbitCamera fit = ui_.camera;
    fit.frame(lo, hi, aspect);
    // Seen from the scene's target instead of the box centre, the box reaches out to `reach`.
    const float reach = std::max((lo - ui_.camera.target).norm(), (hi - ui_.camera.target).norm());
    const float needed = fit.distance * reach / std::max(0.5f * (hi - lo).norm(), 1e-6f);
    ui_.camera.distance = std::max(ui_.camera.distance, std::min(needed, 2.0f * fit.distance));
  } else {
    ui_.camera.yaw = 0.5f;
    ui_.camera.pitch = 0.35f;
    ui_.camera.frame(lo, hi, aspect);
  }
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
  ui_.viewport_size = render::Vec2f(layout_.view.width, layout_.view.height);
  drawControlPanel(ui_, layout_.left_pos, layout_.left_size);
  drawAnalysisPanel(ui_, layout_.right_pos, layout_.right_size);
  handleViewInput(ui_, layout_.view);
  drawViewOverlay(ui_, layout_.view);
  ImGui::Render();

  const Timer render_timer;
  glViewport(0, 0, fb_width, fb_height);
  glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
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

// The scripted run behind --screenshot: one simulation step per drawn frame, and a mouse drag of
// the surface vertex nearest the model's centre through the same code as a real drag.
void Sandbox::scriptedFrame(int frame) {
  const int start = std::max(1, options_.frames / 3);
  if (frame == start) {
    render::Vec3f lo, hi;
    render::bounds(ui_.snapshot->x, lo, hi);
    const render::Vec3f centre = 0.5f * (lo + hi);
    int nearest = ui_.session->view.vertices.front();
    for (int v : ui_.session->view.vertices)
      if ((vertex(ui_.snapshot->x, v).cast<float>() - centre).squaredNorm() < (vertex(ui_.snapshot->x, nearest).cast<float>() - centre).squaredNorm())
        nearest = v;
    render::Vec2f pixel;
    if (ui_.camera.project(vertex(ui_.snapshot->x, nearest).cast<float>(), ui_.viewport_size, pixel) && beginDrag(ui_, pixel)) {
      script_pixel_ = pixel;
      std::printf("scripted drag: picked vertex %d at pixel (%.0f, %.0f)\n", ui_.interaction.dragged, pixel.x(), pixel.y());
    } else {
      std::printf("scripted drag: no surface vertex under pixel (%.0f, %.0f)\n", pixel.x(), pixel.y());
    }
  } else if (frame > start && ui_.interaction.dragged >= 0) {
    const float t = static_cast<float>(frame - start) / std::max(options_.frames - start, 1);
    const render::Vec2f pixel = script_pixel_ + t * render::Vec2f(0.10f * ui_.viewport_size.x(), -0.12f * ui_.viewport_size.y());
    moveDrag(ui_, pixel);
  }
  if (frame + 2 == options_.frames && options_.tab == "compare") ui_.session->runner->compare(compareMethods(ui_));
  ui_.session->runner->pump();
}

void Sandbox::presentFrame() {
  if (ui_.session) ui_.snapshot = ui_.session->runner->snapshot();
  pollMessages();
  const Timer frame_timer;
  drawFrame();
  glfwSwapBuffers(window_);
  ui_.ui_fps = ui_.ui_fps == 0 ? 30.0f : 0.9f * ui_.ui_fps + 0.1f * static_cast<float>(1000.0 / std::max(frame_timer.ms(), 1e-3));
}

// One simulation step per drawn frame, deterministic; reports the second half of the frames only: the
// first ones pay for shader compilation (llvmpipe compiles each pipeline state on first use).
int Sandbox::runScripted() {
  adopt(loadSession(options_.scene, options_.overrides, false));
  const int warmup = options_.frames / 2;
  double simulate_ms = 0, draw_ms = 0, wall_ms = 0;
  for (int frame = 1; frame <= options_.frames && !glfwWindowShouldClose(window_); ++frame) {
    const Timer frame_timer;
    glfwPollEvents();
    scriptedFrame(frame);
    const double step_ms = frame_timer.ms();
    if (frame == options_.frames) ui_.screenshot_request = options_.screenshot;
    presentFrame();
    if (frame > warmup && frame < options_.frames) {  // not the screenshot's frame
      simulate_ms += step_ms;
      draw_ms += frame_timer.ms() - step_ms;
      wall_ms += frame_timer.ms();
    }
  }
  const int n = std::max(options_.frames - 1 - warmup, 1);
  std::printf("qnsim gui: frames %d-%d, one step then one drawing each: %.1f frames per second (simulation %.2f ms/frame, drawing "
              "%.2f ms/frame, %dx%d window)\n",
              warmup + 1, options_.frames - 1, 1000.0 * n / wall_ms, simulate_ms / n, draw_ms / n, options_.width, options_.height);
  return 0;
}

// The window as a user has it: the simulation on its own thread, a frame drawn when something changed
// (input, a new simulation frame, a finished load) and at most 60 per second; idle, it sleeps.
int Sandbox::runInteractive() {
  openAsync(options_.scene);
  int drawn = 0, first_frame = -1;
  Timer wall;
  while (!glfwWindowShouldClose(window_)) {
    const Timer frame_timer;
    glfwWaitEventsTimeout(0.25);
    pollLoader();
    if (options_.benchmark && ui_.session && first_frame < 0) {
      ui_.session->runner->setRealTime(false);
      first_frame = ui_.snapshot ? ui_.snapshot->frame : 0;
      wall.restart();
    }
    presentFrame();
    ++drawn;
    if (options_.benchmark && first_frame >= 0 && ui_.snapshot->frame - first_frame >= options_.frames) break;
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(std::max(0.0, 1000.0 / 60.0 - frame_timer.ms())));
  }
  if (options_.benchmark && first_frame >= 0) {
    const double seconds = wall.ms() * 1e-3;
    std::printf("qnsim gui --benchmark: %d frames simulated in %.2f s while drawing: %.1f simulated and %.1f drawn frames per second "
                "(%dx%d window)\n",
                ui_.snapshot->frame - first_frame, seconds, (ui_.snapshot->frame - first_frame) / seconds, drawn / seconds,
                options_.width, options_.height);
  }
  return 0;
}

int Sandbox::run() {
  openWindow();
  layout_ = layoutFor(ImVec2(static_cast<float>(options_.width), static_cast<float>(options_.height)));
  ui_.viewport_size = render::Vec2f(layout_.view.width, layout_.view.height);
  ui_.catalog = catalogScenes();
  ui_.open = [this](const std::string& path) { openAsync(path); };
  ui_.frame_camera = [this] { frameCamera(); };
  ui_.select_tab = options_.tab;
  const char* modes[] = {"region", "stress", "strain", "inversion"};
  for (int m = 0; m < 4; ++m)
    if (options_.color == modes[m]) ui_.color_mode = static_cast<ColorMode>(m);
  return scripted_ ? runScripted() : runInteractive();
}

}  // namespace

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
  if (resolved.scene.empty()) resolved.scene = defaultScenePath();
  glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "qnsim gui: GLFW error %d: %s\n", code, text); });
  Sandbox sandbox(resolved);
  return sandbox.run();
}

void logMessage(UiState& ui, const std::string& message) {
  ui.log.push_back(message);
  if (ui.log.size() > 200) ui.log.pop_front();
  std::fprintf(stderr, "qnsim gui: %s\n", message.c_str());
}

double dragStiffness(const UiState& ui) { return (ui.session ? ui.session->typical_diagonal : 1.0) * ui.interaction.drag_stiffness_scale; }
double pinStiffness(const UiState& ui) { return 100.0 * (ui.session ? ui.session->typical_diagonal : 1.0) * ui.interaction.pin_stiffness_scale; }

}  // namespace qnsim::gui
