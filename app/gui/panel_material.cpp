// The Materials tab: per region, the model and its parameters edited live, the stress function f of
// Eq. 10 with the fitted line of slope k (Eq. 11), and the draggable control points of splines.
#include <imgui.h>

#include <cmath>

#include "app/gui/panel_material.h"
#include "app/gui/param_widgets.h"
#include "app/gui/plot_widget.h"
#include "core/material/spline.h"
#include "core/material/stiffness_fit.h"
#include "core/material/valanis_landel.h"
#include "qnsim/error.h"

namespace qnsim::gui {
namespace {

constexpr double kStretchLo = 0.3, kStretchHi = 2.2;

// A new material of another model keeps the values of the parameters both models have (mu, lambda).
std::shared_ptr<Material> switchModel(const Material& old, const std::string& model) {
  std::shared_ptr<Material> fresh(makeMaterial(model));
  for (const MaterialParameter& p : fresh->parameters())
    for (const MaterialParameter& q : old.parameters())
      if (p.key == q.key) fresh->set(p.key, std::clamp(old.get(q.key), p.min, p.max));
  return fresh;
}

// A model switch or new control points: the whole material as one edit.
void sendMaterial(UiState& ui, const std::string& region, std::shared_ptr<const Material> material, bool continuing = false) {
  ui.pending.sent(ui.session->runner->apply(SetMaterial{region, material}, continuing), region, material);
}

// The model and its constants; each constant edit is a material.NAME.PARAMETER edit, as --set makes it.
void editModel(UiState& ui, const RegionView& region, const Material& shown) {
  ImGui::SetNextItemWidth(160);
  if (ImGui::BeginCombo("model", std::string(shown.model()).c_str())) {
    for (const MaterialModel& m : materialModels())
      if (m.solid == region.solid && ImGui::Selectable(m.name.c_str(), m.name == shown.model()) && m.name != shown.model())
        sendMaterial(ui, region.name, switchModel(shown, m.name));
    ImGui::EndCombo();
  }
  for (const MaterialParameter& p : shown.parameters()) {
    ParameterValue value = shown.get(p.key);
    bool continuing = false;
    if (!editParameter(p, value, &continuing)) continue;
    std::shared_ptr<Material> edited = shown.clone();
    edited->set(p.key, std::get<double>(value));
    const long number = ui.session->runner->apply(SetParameter{"material." + region.name + "." + p.key, value}, continuing);
    ui.pending.sent(number, region.name, std::move(edited));
  }
}

// Drags one control point of a spline material on the plot; the point (1, 1) stays fixed. True, with the
// moved points in `points`, when a point moved.
bool dragControlPoints(const SplineMaterial& spline, const PlotArea& area, int& active, std::vector<Vec2>& points) {
  const double mu = std::max(spline.get("mu"), 1e-12);
  points = spline.controlPoints();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsItemActivated()) {
    active = -1;
    for (size_t i = 0; i < points.size(); ++i) {
      const ImVec2 p = area.toScreen(points[i].x(), mu * points[i].y());
      if (std::hypot(p.x - mouse.x, p.y - mouse.y) < 8.0f && !(points[i].x() == 1.0 && points[i].y() == 1.0)) active = static_cast<int>(i);
    }
  }
  bool changed = false;
  if (ImGui::IsItemActive() && active >= 0) {
    const double lo = active > 0 ? points[active - 1].x() + 0.02 : 0.01;
    const double hi = active + 1 < static_cast<int>(points.size()) ? points[active + 1].x() - 0.02 : 10.0;
    Vec2 moved(std::clamp(area.xAt(mouse.x), lo, hi), area.yAt(mouse.y) / mu);
    if (std::abs(moved.x() - 1.0) < 0.02) moved.x() = points[active].x();  // never a second point at x = 1
    points[active] = moved;
    try {
      SplineMaterial(spline).setControlPoints(points);  // checked: only valid points are sent
      changed = true;
    } catch (const Error&) {
    }
  }
  if (!ImGui::IsItemActive()) active = -1;
  for (size_t i = 0; i < points.size(); ++i) {
    const ImVec2 p = area.toScreen(points[i].x(), mu * points[i].y());
    const bool fixed = points[i].x() == 1.0 && points[i].y() == 1.0;
    dl->AddCircleFilled(p, static_cast<int>(i) == active ? 6.0f : 4.5f, fixed ? IM_COL32(160, 160, 160, 255) : IM_COL32(255, 220, 80, 255));
  }
  return changed;
}

// The curve; a spline's control points can be dragged on it, giving `points` and true.
bool drawCurve(const SolidMaterial& material, const Vec2& interval, float height, int& active, std::vector<Vec2>& points) {
  const double k = solidStiffness(material, interval);  // a PD energy's own weight, else Eq. 11
  PlotSpec p{"Stress f(x) of Eq. 10 and its fitted line", "stretch x", "f (Pa)", {}, {}, {}, true};
  Series f{"f(x) = a'(x) + 2b'(x) + c'(x)", seriesColor(0), {}, {}};
  const auto* spline = dynamic_cast<const SplineMaterial*>(&material);
  const double lo = spline ? std::min(kStretchLo, std::max(0.01, spline->controlPoints().front().x() - 0.05)) : kStretchLo;
  const double hi = spline ? std::max(kStretchHi, std::min(4.0, spline->controlPoints().back().x() + 0.1)) : kStretchHi;
  for (int i = 0; i <= 200; ++i) {
    const double x = lo + (hi - lo) * i / 200.0;
    f.x.push_back(x);
    f.y.push_back(stressFunction(material, x));
  }
  char label[64];
  std::snprintf(label, sizeof label, "k (x - 1), k = %.4g", k);
  Series fit{label, seriesColor(1), {interval[0], interval[1]}, {k * (interval[0] - 1), k * (interval[1] - 1)}, Dash::dashed};
  p.series = {f, fit};
  if (spline) {
    Series s{"mu s(x) (drag the points)", seriesColor(5), {}, {}};
    for (double x : f.x) {
      s.x.push_back(x);
      s.y.push_back(spline->get("mu") * spline->shape(x));
    }
    p.series.push_back(s);
  }
  p.x = {lo, hi, false};  // spline: every control point in view (within reason)
  // While a control point is dragged the axis stays put, or it would rescale under the mouse and run away.
  static Axis held_y;
  if (active < 0) held_y = fitAxis(p.series, true, false);
  p.y = held_y;
  const PlotArea area = drawPlot("##curve", p, {0, height});
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 a = area.toScreen(interval[0], p.y.hi), b = area.toScreen(interval[1], p.y.lo);
  dl->AddRectFilled(a, b, IM_COL32(255, 160, 60, 22));  // [x_start, x_end]
  return spline && dragControlPoints(*spline, area, active, points);
}

}  // namespace

void drawMaterialTab(UiState& ui) {
  const Snapshot& snapshot = *ui.snapshot;
  const Vec2 interval = ui.pending.over(snapshot.settings).solver.stiffness_interval;
  ImGui::TextWrapped("Edits apply at once to g and grad g; k is re-fitted over [%.2f, %.2f] (solver.stiffness_interval; a Projective "
                     "Dynamics material's k is its constraint weights) and A is refactored in the background.",
                     interval[0], interval[1]);
  if (snapshot.refactor_pending) ImGui::TextColored({0.9f, 0.8f, 0.3f, 1}, "refactoring A...");
  static int active_point = -1;
  for (size_t i = 0; i < snapshot.regions.size(); ++i) {
    const RegionView& region = snapshot.regions[i];
    const std::shared_ptr<const Material> shown = ui.pending.material(region.name, region.material);
    ImGui::PushID(static_cast<int>(i));
    const std::string title = "Region " + std::to_string(i) + ": " + (region.name.empty() ? "(unnamed)" : region.name);
    if (ImGui::CollapsingHeader(title.c_str(), i == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      editModel(ui, region, *shown);
      std::vector<Vec2> points;
      const auto* solid = dynamic_cast<const SolidMaterial*>(shown.get());
      const float height = std::max(240.0f, ImGui::GetContentRegionAvail().y - 40.0f * (snapshot.regions.size() - i - 1));
      if (solid && drawCurve(*solid, interval, std::min(height, 420.0f), active_point, points)) {
        auto spline = std::make_shared<SplineMaterial>(static_cast<const SplineMaterial&>(*shown));
        spline->setControlPoints(points);
        sendMaterial(ui, region.name, std::move(spline), gestureContinues());  // one undo step per drag
      }
    }
    ImGui::PopID();
  }
}

}  // namespace qnsim::gui
