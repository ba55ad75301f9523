// The sandbox's loops: interactive (simulation thread, event driven), the scripted screenshot run
// and the benchmark.
#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "app/gui/sandbox_window.h"
#include "core/common/parallel.h"
#include "core/common/timer.h"

namespace qnsim::gui {

// The scripted run behind --screenshot: one simulation step per drawn frame, from frame N/3 on a
// mouse drag of the surface vertex nearest the model's centre or a cut across the model, through the
// same code as the mouse, and with --open a file opened half-way through as the Open button opens it.
void Sandbox::scriptedFrame(int frame) {
  const int start = std::max(1, options_.frames / 3);
  if (options_.script == "cut" && frame == start) scriptedCut();
  if (options_.script == "drag") scriptedDrag(frame, start);
  if (options_.script == "edit" && frame == start) scriptedEdits();
  if (frame == std::max(1, options_.frames / 2) && !options_.open.empty()) {
    ui_.open(options_.open);
    pollLoader(true);
  }
  if (frame + 2 == options_.frames && options_.tab == "compare")
    ui_.session->runner->compare(compareMethods(ui_.compare));
  ui_.session->runner->pump();
}

void Sandbox::scriptedDrag(int frame, int start) {
  const std::vector<int>& drawn = ui_.snapshot->surface->vertices;
  if (frame == start && !drawn.empty()) {
    view::Vec3f lo, hi;
    view::bounds(ui_.snapshot->x, lo, hi);
    const view::Vec3f centre = 0.5f * (lo + hi);
    int nearest = drawn.front();
    for (int v : drawn)
      if ((vertex(ui_.snapshot->x, v).cast<float>() - centre).squaredNorm() < (vertex(ui_.snapshot->x, nearest).cast<float>() - centre).squaredNorm())
        nearest = v;
    view::Vec2f pixel;
    if (ui_.camera.project(vertex(ui_.snapshot->x, nearest).cast<float>(), ui_.viewport_size, pixel) && beginDrag(ui_, pixel)) {
      script_pixel_ = pixel;
      std::printf("scripted drag: picked vertex %d at pixel (%.0f, %.0f)\n", ui_.interaction.dragged, pixel.x(), pixel.y());
    } else {
      std::printf("scripted drag: no surface vertex under pixel (%.0f, %.0f)\n", pixel.x(), pixel.y());
    }
  } else if (frame > start && ui_.interaction.dragged >= 0) {
    const float t = static_cast<float>(frame - start) / std::max(options_.frames - start, 1);
    const view::Vec2f pixel = script_pixel_ + t * view::Vec2f(0.10f * ui_.viewport_size.x(), -0.12f * ui_.viewport_size.y());
    moveDrag(ui_, pixel);
  }
}

// Edits as a user makes them, through the same runner: the top tenth of the model pinned, the L-BFGS
// window changed, the first collider moved and that move undone.
void Sandbox::scriptedEdits() {
  SimRunner& runner = *ui_.session->runner;
  view::Vec3f lo, hi;
  view::bounds(ui_.snapshot->x, lo, hi);
  std::vector<int> top;
  for (int v : ui_.session->all_vertices)
    if (vertex(ui_.snapshot->x, v).y() > hi.y() - 0.1 * (hi.y() - lo.y())) top.push_back(v);
  runner.apply(PinVertices{top, pinStiffness(ui_)});
  runner.apply(SetParameter{"solver.lbfgs_window", 3});
  if (!ui_.snapshot->colliders.empty()) {
    Collider moved = ui_.snapshot->colliders.front();
    moved.position.y() += 0.05 * (hi.y() - lo.y());
    runner.apply(SetCollider{0, moved});
    runner.undo();
  }
  std::printf("scripted edits: pinned %zu vertices, set the L-BFGS window, moved and restored a collider\n", top.size());
}

// A vertical line through the middle of the drawn surface's picture, 20 pixels beyond it at both ends.
void Sandbox::scriptedCut() {
  view::Vec2f lo = view::Vec2f::Constant(1e9f), hi = -lo, pixel;
  for (int v : ui_.snapshot->surface->vertices)
    if (ui_.camera.project(vertex(ui_.snapshot->x, v).cast<float>(), ui_.viewport_size, pixel))
      lo = lo.cwiseMin(pixel), hi = hi.cwiseMax(pixel);
  if (!(lo.x() <= hi.x())) {
    std::printf("scripted cut: the model is not in view\n");
    return;
  }
  const float x = 0.5f * (lo.x() + hi.x());
  const view::Vec2f from(x, lo.y() - 20.0f), to(x, hi.y() + 20.0f);
  std::printf("scripted cut: from pixel (%.0f, %.0f) to (%.0f, %.0f)\n", from.x(), from.y(), to.x(), to.y());
  ui_.interaction.cut_tool = true;  // as a user who took the tool
  cutAlong(ui_, from, to);
}

void Sandbox::presentFrame() {
  if (ui_.session) {
    ui_.snapshot = ui_.session->runner->snapshot();
    ui_.pending.applied(ui_.snapshot->edits_done);
  }
  pollMessages();
  const Timer frame_timer;
  drawFrame();
  glfwSwapBuffers(window_);
  ui_.ui_fps = ui_.ui_fps == 0 ? 30.0f : 0.9f * ui_.ui_fps + 0.1f * static_cast<float>(1000.0 / std::max(frame_timer.ms(), 1e-3));
}

// One simulation step per drawn frame, deterministic; reports the second half of the frames only: the
// first ones pay for shader compilation (llvmpipe compiles each pipeline state on first use).
int Sandbox::runScripted() {
  adopt(loadSession(options_.scene, options_.overrides, false, ui_.tetgen));
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

namespace {

// What --benchmark counts, from the moment the scene is loaded: frames simulated (on the simulation's
// thread, with their solve times) and frames drawn (with the time the window thread spent drawing).
struct BenchmarkCount {
  bool started = false;
  RunTotals start;
  int drawn = 0;
  double draw_ms = 0;
  Timer wall;

  void print(const RunTotals& now, const SandboxOptions& options) const {
    const double seconds = wall.ms() * 1e-3;
    const long frames = now.frames - start.frames;
    std::printf("qnsim gui --benchmark: %ld frames simulated in %.2f s while drawing: %.1f simulated and %.1f drawn frames per second; "
                "simulation %.2f ms/frame (its own thread, %d worker thread(s)), drawing %.2f ms/frame (%dx%d window)\n",
                frames, seconds, frames / seconds, drawn / seconds, (now.frame_ms - start.frame_ms) / std::max(frames, 1L), threadCount(),
                draw_ms / std::max(drawn, 1), options.width, options.height);
  }
};

}  // namespace

// True when the window woke up only because its wait timed out while the simulation is playing: there
// is nothing new to draw, and the frame on its way will wake the window. Drawing anyway would take the
// cores from that frame (a software renderer draws on them), several times per frame on a slow scene.
bool Sandbox::nothingToDraw(bool timed_out) const {
  if (!timed_out || !ui_.session || ui_.loading || ui_.session->runner->busy()) return false;  // busy: a compare solve
  const std::shared_ptr<const Snapshot> latest = ui_.session->runner->snapshot();
  return latest == ui_.snapshot && latest->playing;
}

// The window as a user has it: the simulation on its own thread, a frame drawn when something changed
// (input, a new simulation frame, a finished load) and at most 60 per second; idle, it sleeps and draws
// four times a second (ImGui's tooltips and text cursor), unless a simulation frame is on its way.
int Sandbox::runInteractive() {
  constexpr double kIdleWait = 0.25;  // s
  openAsync(options_.scene);
  BenchmarkCount count;
  while (!closing()) {
    const Timer frame_timer;
    glfwWaitEventsTimeout(kIdleWait);
    if (nothingToDraw(frame_timer.ms() >= 1e3 * kIdleWait)) continue;
    pollLoader();
    if (options_.benchmark && ui_.session && !count.started) {
      ui_.session->runner->setRealTime(false);
      count.started = true;
      count.start = ui_.session->runner->snapshot()->totals;
      count.wall.restart();
    }
    const Timer draw_timer;
    presentFrame();
    if (count.started) count.draw_ms += draw_timer.ms(), ++count.drawn;
    if (count.started && ui_.snapshot->totals.frames - count.start.frames >= options_.frames) break;
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(std::max(0.0, 1000.0 / 60.0 - frame_timer.ms())));
  }
  if (count.started) count.print(ui_.session->runner->snapshot()->totals, options_);
  return 0;
}

int Sandbox::run() {
  openWindow();
  layout_ = layoutFor(ImVec2(static_cast<float>(options_.width), static_cast<float>(options_.height)));
  ui_.viewport_size = view::Vec2f(layout_.view.width, layout_.view.height);
  ui_.catalog = catalogScenes();
  ui_.open = [this](const std::string& path) {
    ui_.unsaved_guard.request(unsavedEdits(ui_), "open " + path, [this, path] { openAsync(path); });
  };
  ui_.frame_camera = [this] { frameCamera(); };
  ui_.select_tab = options_.tab;
  for (const ColorModeNames& m : colorModes())
    if (options_.color == m.key) ui_.color_mode = m.mode;
  return scripted_ ? runScripted() : runInteractive();
}

}  // namespace qnsim::gui
