// The Materials tab: per region, the model and its parameters edited live, the stress function f of
// Eq. 10 with the fitted line of slope k (Eq. 11), and the draggable control points of splines.
#include <imgui.h>

#include <cmath>

#include "app/gui/panel_material.h"
#include "app/gui/param_widgets.h"
#include "app/gui/plot_widget.h"
#include "core/common/error.h"
#include "core/material/spline.h"
#include "core/material/stiffness_fit.h"
#include "core/material/valanis_landel.h"

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

bool editModel(RegionInfo& region) {
  bool changed = false;
  ImGui::SetNextItemWidth(160);
  if (ImGui::BeginCombo("model", std::string(region.material->model()).c_str())) {
    for (const MaterialModel& m : materialModels()) {
      if (m.solid != region.solid) continue;
      if (ImGui::Selectable(m.name.c_str(), m.name == region.material->model()) && m.name != region.material->model()) {
        region.material = switchModel(*region.material, m.name);
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  for (const MaterialParameter& p : region.material->parameters()) {
    ParameterValue value = region.material->get(p.key);
    if (editParameter(p, value)) {
      region.material->set(p.key, std::get<double>(value));
      changed = true;
    }
  }
  return changed;
}

// Drags one control point of a spline material on the plot; the point (1, 1) stays fixed.
bool dragControlPoints(SplineMaterial& spline, const PlotArea& area, int& active) {
  const double mu = std::max(spline.get("mu"), 1e-12);
  std::vector<Vec2> points = spline.controlPoints();
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
      spline.setControlPoints(points);
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

bool drawCurve(RegionInfo& region, const Vec2& interval, float height, int& active) {
  const auto& material = static_cast<const SolidMaterial&>(*region.material);
  const double k = solidStiffness(material, interval);  // a PD energy's own weight, else Eq. 11
  PlotSpec p{"Stress f(x) of Eq. 10 and its fitted line", "stretch x", "f (Pa)", {}, {}, {}, true};
  Series f{"f(x) = a'(x) + 2b'(x) + c'(x)", seriesColor(0), {}, {}};
  auto* spline = dynamic_cast<SplineMaterial*>(region.material.get());
  const double lo = spline ? std::min(kStretchLo, std::max(0.01, spline->controlPoints().front().x() - 0.05)) : kStretchLo;
  const double hi = spline ? std::max(kStretchHi, std::min(4.0, spline->controlPoints().back().x() + 0.1)) : kStretchHi;
  for (int i = 0; i <= 200; ++i) {
    const double x = lo + (hi - lo) * i / 200.0;
    f.x.push_back(x);
    f.y.push_back(stressFunction(material, x));
  }
  char label[64];
  std::snprintf(label, sizeof label, "k (x - 1), k = %.4g", k);
  Series fit{label, seriesColor(1), {interval[0], interval[1]}, {k * (interval[0] - 1), k * (interval[1] - 1)}, true};
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
  return spline && dragControlPoints(*spline, area, active);
}

}  // namespace

void drawMaterialTab(UiState& ui) {
  Session& session = *ui.session;
  const Vec2 interval = session.settings.solver.stiffness_interval;
  ImGui::TextWrapped("Edits apply at once to g and grad g; k is re-fitted over [%.2f, %.2f] (solver.stiffness_interval; a Projective "
                     "Dynamics material's k is its constraint weights) and, when k changes, A is refactored in the background.",
                     interval[0], interval[1]);
  if (ui.snapshot->refactor_pending) ImGui::TextColored({0.9f, 0.8f, 0.3f, 1}, "refactoring A...");
  static int active_point = -1;
  for (size_t i = 0; i < session.regions.size(); ++i) {
    RegionInfo& region = session.regions[i];
    ImGui::PushID(static_cast<int>(i));
    const std::string title = "Region " + std::to_string(i) + ": " + (region.name.empty() ? "(unnamed)" : region.name);
    if (ImGui::CollapsingHeader(title.c_str(), i == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      bool changed = editModel(region);
      if (region.solid) {
        const float height = std::max(240.0f, ImGui::GetContentRegionAvail().y - 40.0f * (session.regions.size() - i - 1));
        changed |= drawCurve(region, interval, std::min(height, 420.0f), active_point);
      }
      if (changed) session.runner->setMaterial(static_cast<int>(i), std::shared_ptr<const Material>(region.material->clone()));
    }
    ImGui::PopID();
  }
}

}  // namespace qnsim::gui
