// The right column: convergence plots, the compare action, line-search statistics and timings.
#include <imgui.h>

#include <cctype>
#include <cmath>

#include "app/gui/logic/param_binding.h"
#include "app/gui/panel_analysis.h"
#include "app/gui/panel_material.h"
#include "app/gui/plot_widget.h"
#include "qnsim/error.h"
#include "qnsim/parameters.h"
#include "plot/method_style.h"

namespace qnsim::gui {
namespace {

float plotHeight(int remaining_plots) {
  return std::max(150.0f, (ImGui::GetContentRegionAvail().y - 8.0f * remaining_plots) / remaining_plots);
}

Series series(const std::string& label, int color, bool markers = false) { return {label, seriesColor(color), {}, {}, Dash::solid, markers}; }

void finish(PlotSpec& p, bool log_y, bool x_from_zero = true) {
  p.x = fitAxis(p.series, false, false);
  if (x_from_zero) p.x.lo = 0.0;
  if (p.x.hi <= p.x.lo) p.x.hi = p.x.lo + 1.0;
  p.y = fitAxis(p.series, true, log_y);
}

void drawConvergenceTab(UiState& ui) {
  const Snapshot& s = *ui.snapshot;
  const auto& its = s.iterations;
  PlotSpec g{"Objective g per iteration, frame " + std::to_string(s.frame), "iteration", "g", {}, {}, {series("g", 0, true)}, false};
  PlotSpec conv{"Gradient and relative error (Eq. 12)", "iteration", "relative", {}, {}, {series("|grad g| / |grad g0|", 1, true)}, true};
  if (!s.rel_error.empty()) conv.series.push_back(series("(g - g*) / (g0 - g*)", 2, true));
  for (size_t k = 0; k < its.size(); ++k) {
    g.series[0].x.push_back(its[k].iteration);
    g.series[0].y.push_back(its[k].g);
    conv.series[0].x.push_back(its[k].iteration);
    conv.series[0].y.push_back(its.front().grad_norm > 0 ? its[k].grad_norm / its.front().grad_norm : 0.0);
    if (k < s.rel_error.size()) {
      conv.series[1].x.push_back(its[k].iteration);
      conv.series[1].y.push_back(s.rel_error[k]);
    }
  }
  finish(g, true);
  finish(conv, true);
  PlotSpec history{"History over frames (last iterate of each)", "frame", "relative", {}, {}, {series("|grad g| / |grad g0|", 1)}, true};
  bool any_error = false;
  for (const FrameSummary& f : s.history) any_error |= std::isfinite(f.rel_error);
  if (any_error) history.series.push_back(series("rel. error (Eq. 12)", 2));
  for (const FrameSummary& f : s.history) {
    history.series[0].x.push_back(f.frame);
    history.series[0].y.push_back(f.grad0 > 0 ? f.grad / f.grad0 : NAN);
    if (any_error) {
      history.series[1].x.push_back(f.frame);
      history.series[1].y.push_back(f.rel_error);
    }
  }
  finish(history, true, false);
  drawPlot("##g", g, {0, plotHeight(3)});
  drawPlot("##conv", conv, {0, plotHeight(2)});
  if (s.rel_error.empty()) ImGui::TextDisabled("Relative error: tick Solver > exact solve per frame.");
  drawPlot("##history", history, {0, plotHeight(1)});
}

// The ticked methods' settings; a rejected edit is shown instead of comparing.
void requestComparison(UiState& ui) {
  try {
    ui.session->runner->compare(compareMethods(ui.compare));
    ui.compare_error.clear();
  } catch (const Error& e) {
    ui.compare_error = e.what();
  }
}

// One checkbox per method, flowing left to right; an L-BFGS entry's window is edited in its label.
void drawCompareEntries(CompareConfig& c) {
  const ParamWidget window = widgetFor(findParameter("solver.lbfgs_window"));
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x, gap = 14.0f, drag = 30.0f;
  for (size_t i = 0; i < c.entries.size(); ++i) {
    CompareEntry& e = c.entries[i];
    const float width = ImGui::GetFrameHeight() + ImGui::CalcTextSize(plot::methodName(compareLabel(e)).c_str()).x + (e.window >= 0 ? drag : 0.0f) + 8.0f;
    if (i > 0 && ImGui::GetItemRectMax().x + gap + width <= right) ImGui::SameLine(0, gap);
    ImGui::PushID(static_cast<int>(i));
    ImGui::Checkbox(e.window >= 0 ? "##on" : plot::methodName(compareLabel(e)).c_str(), &e.enabled);
    if (e.window >= 0) {
      ImGui::SameLine(0, 4);
      ImGui::TextUnformatted((compareMethodName(e) + " m=").c_str());
      ImGui::SameLine(0, 2);
      ImGui::SetNextItemWidth(drag);
      ImGui::DragInt("##m", &e.window, 0.2f, static_cast<int>(window.lo), static_cast<int>(window.hi), "%d", ImGuiSliderFlags_AlwaysClamp);
      if (const std::string variant = compareVariant(e); !variant.empty()) {
        ImGui::SameLine(0, 0);
        ImGui::TextUnformatted(plot::settingsName(variant).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.edits.front().c_str());
      }
    }
    ImGui::PopID();
  }
}

// BASE.csv, .svg and .png of the shown comparison, as `qnsim experiment` writes its figures.
void drawCompareExport(UiState& ui, const CompareResult* result) {
  ImGui::BeginDisabled(!result);
  if (ImGui::Button("Export")) {
    try {
      const auto files = exportComparison(*result, ui.record.compare_base, ui.session->name);
      ui.compare_note = "wrote " + files.front().string() + ", .svg and .png";
      ui.compare_error.clear();
    } catch (const Error& e) {
      ui.compare_error = e.what();
    }
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(160);
  ImGui::InputText("(.csv, .svg, .png)", ui.record.compare_base, sizeof ui.record.compare_base);
  if (!ui.compare_note.empty()) ImGui::SameLine(), ImGui::TextDisabled("%s", ui.compare_note.c_str());
}

void drawCompareTab(UiState& ui) {
  CompareConfig& c = ui.compare;
  ImGui::TextWrapped("Re-solves the next frame from the current state with each method, against one exact solution.");
  drawCompareEntries(c);
  ImGui::SetNextItemWidth(80);
  ImGui::DragInt("iterations", &c.iterations, 0.5f, 1, 1000);
  const bool busy = ui.session->runner->busy();
  ImGui::BeginDisabled(busy);
  if (ImGui::Button(busy ? "Solving..." : "Compare next frame")) requestComparison(ui);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::Checkbox("against time", &c.against_time);
  const auto result = ui.snapshot->compare;
  drawCompareExport(ui, result.get());
  if (!ui.compare_error.empty()) ImGui::TextColored({1.0f, 0.45f, 0.4f, 1}, "%s", ui.compare_error.c_str());
  if (!result) {
    ImGui::TextDisabled("No comparison yet.");
    return;
  }
  PlotSpec p{"Relative error (Eq. 12), frame " + std::to_string(result->frame), c.against_time ? "time (ms)" : "iteration",
             "(g - g*) / (g0 - g*)", {}, {}, {}, true};
  for (size_t m = 0; m < result->traces.size(); ++m) {
    Series sr = methodSeries(result->traces[m].label, static_cast<int>(m));
    const auto& trace = result->traces[m];
    for (size_t k = 0; k < trace.rel_error.size(); ++k) {
      sr.x.push_back(c.against_time ? trace.result.iterations[k].time_ms : trace.result.iterations[k].iteration);
      sr.y.push_back(trace.rel_error[k]);
    }
    p.series.push_back(std::move(sr));
  }
  finish(p, true);
  drawPlot("##compare", p, {0, std::max(220.0f, ImGui::GetContentRegionAvail().y - 170.0f)});
  if (ImGui::BeginTable("##methods", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
    for (const char* h : {"method", "iterations", "final error", "time (ms)"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (size_t m = 0; m < result->traces.size(); ++m) {
      const auto& t = result->traces[m];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(toImColor(methodSeries(t.label, static_cast<int>(m)).color)), "%s", methodName(t.label).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%zu", t.result.iterations.size() - 1);
      ImGui::TableNextColumn();
      ImGui::Text("%.3g", t.rel_error.empty() ? NAN : t.rel_error.back());
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", t.result.iterations.empty() ? 0.0 : t.result.iterations.back().time_ms);
    }
    ImGui::EndTable();
  }
}

void drawLineSearchTab(UiState& ui) {
  const Snapshot& s = *ui.snapshot;
  const RunTotals& t = s.totals;
  ImGui::Text("This frame: %d trials in %d iterations", s.record.ls_trials, s.record.iterations);
  ImGui::Text("Run: %ld frames, %ld iterations, %ld trials", t.frames, t.iterations, t.ls_trials);
  ImGui::Text("Average: %.3f trials per iteration, mean accepted alpha %.3f", t.iterations ? double(t.ls_trials) / t.iterations : 0.0,
              t.iterations ? t.alpha_sum / t.iterations : 0.0);
  PlotSpec trials{"Line-search trials per iteration (this frame)", "iteration", "trials", {}, {}, {series("trials", 1, true)}, false};
  PlotSpec alpha{"Accepted step alpha per iteration (this frame)", "iteration", "alpha", {}, {}, {series("alpha", 0, true)}, false};
  for (size_t k = 1; k < s.iterations.size(); ++k) {
    trials.series[0].x.push_back(s.iterations[k].iteration);
    trials.series[0].y.push_back(s.iterations[k].ls_trials);
    alpha.series[0].x.push_back(s.iterations[k].iteration);
    alpha.series[0].y.push_back(s.iterations[k].alpha);
  }
  finish(trials, false);
  trials.y.lo = 0;
  trials.y.hi = std::max(trials.y.hi, 3.0);
  finish(alpha, true);
  include(alpha.y, 1.0);
  PlotSpec history{"Per frame", "frame", "", {}, {}, {series("trials / iteration", 1), series("mean alpha", 0)}, true};
  for (const FrameSummary& f : s.history) {
    history.series[0].x.push_back(f.frame);
    history.series[0].y.push_back(f.iterations ? double(f.ls_trials) / f.iterations : 0.0);
    history.series[1].x.push_back(f.frame);
    history.series[1].y.push_back(f.mean_alpha);
  }
  finish(history, false, false);
  history.y.lo = 0;
  drawPlot("##trials", trials, {0, plotHeight(3)});
  drawPlot("##alpha", alpha, {0, plotHeight(2)});
  drawPlot("##lshistory", history, {0, plotHeight(1)});
}

void drawTimingsTab(UiState& ui) {
  const Snapshot& s = *ui.snapshot;
  const PhaseTimes& p = s.record.times;
  const double frame = std::max(s.record.frame_ms, 1e-9);
  const std::pair<const char*, double> phases[] = {{"derivatives (g, grad g)", p.gradient}, {"linear solves (A^-1)", p.linear_solve},
                                                   {"L-BFGS loops", p.lbfgs},           {"line search", p.line_search},
                                                   {"contacts", p.contacts},            {"constraint sweeps (PBD)", p.projection}};
  ImGui::Text("Frame %d: %.2f ms (simulation thread)", s.frame, s.record.frame_ms);
  for (size_t i = 0; i < std::size(phases); ++i) {
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImGui::ColorConvertU32ToFloat4(toImColor(seriesColor(static_cast<int>(i) + 1))));
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%.2f ms", phases[i].second);
    ImGui::ProgressBar(static_cast<float>(phases[i].second / frame), {170, 0}, overlay);
    ImGui::PopStyleColor();
    ImGui::SameLine();
    ImGui::TextUnformatted(phases[i].first);
  }
  const double n = std::max<double>(s.totals.frames, 1);
  ImGui::Text("Run average: %.2f ms/frame over %ld frames", s.totals.frame_ms / n, s.totals.frames);
  ImGui::Text("Window: %.0f fps, drawing %.2f ms", ui.ui_fps, ui.render_ms);
  PlotSpec history{"Time per frame by phase", "frame", "ms", {}, {}, {series("frame", 0)}, true};
  for (size_t i = 0; i < std::size(phases); ++i) history.series.push_back(series(phases[i].first, static_cast<int>(i) + 1));
  for (const FrameSummary& f : s.history) {
    const double values[] = {f.frame_ms,          f.times.gradient, f.times.linear_solve, f.times.lbfgs,
                             f.times.line_search, f.times.contacts, f.times.projection};
    for (size_t i = 0; i < std::size(values); ++i) {
      history.series[i].x.push_back(f.frame);
      history.series[i].y.push_back(values[i]);
    }
  }
  finish(history, false, false);
  history.y.lo = 0;
  drawPlot("##timings", history, {0, plotHeight(1)});
}

}  // namespace

void drawAnalysisPanel(UiState& ui, const ImVec2& position, const ImVec2& size) {
  ImGui::SetNextWindowPos(position);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Analysis", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
  if (ui.session && ui.snapshot && ImGui::BeginTabBar("##tabs")) {
    const std::pair<const char*, void (*)(UiState&)> tabs[] = {{"Convergence", drawConvergenceTab}, {"Compare", drawCompareTab},
                                                               {"Line search", drawLineSearchTab},  {"Timings", drawTimingsTab},
                                                               {"Materials", drawMaterialTab}};
    for (const auto& [name, draw] : tabs) {
      std::string lower = name;
      for (char& c : lower) c = static_cast<char>(std::tolower(c));
      const ImGuiTabItemFlags flags = lower == ui.select_tab ? ImGuiTabItemFlags_SetSelected : 0;
      if (ImGui::BeginTabItem(name, nullptr, flags)) {
        draw(ui);
        ImGui::EndTabItem();
      }
    }
    ui.select_tab.clear();
    ImGui::EndTabBar();
  }
  ImGui::End();
}

}  // namespace qnsim::gui
