#include "app/gui/plot_widget.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "plot/layout.h"

namespace qnsim::gui {
namespace {

constexpr float kBottomMargin = 36.0f, kTopMargin = 22.0f, kRightMargin = 10.0f;

// Room for the widest y tick label.
float leftMargin(const PlotSpec& spec, float height) {
  float width = 0;
  for (const Tick& t : ticks(spec.y, std::max(2, static_cast<int>(height / 28.0f)))) width = std::max(width, ImGui::CalcTextSize(t.label.c_str()).x);
  return std::max(36.0f, width + 12.0f);
}

void drawAxes(ImDrawList* dl, const PlotSpec& spec, const PlotArea& a, float left_margin) {
  const ImU32 grid = IM_COL32(255, 255, 255, 28), minor = IM_COL32(255, 255, 255, 12), text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddRectFilled(a.min, a.max, IM_COL32(22, 24, 28, 255));
  const int x_labels = std::max(2, static_cast<int>((a.max.x - a.min.x) / 70.0f));
  for (const Tick& t : ticks(a.x, x_labels)) {
    const float x = a.toScreen(t.value, a.y.lo).x;
    dl->AddLine({x, a.min.y}, {x, a.max.y}, t.label.empty() ? minor : grid);
    if (t.label.empty()) continue;
    const ImVec2 size = ImGui::CalcTextSize(t.label.c_str());
    dl->AddText({x - 0.5f * size.x, a.max.y + 3.0f}, dim, t.label.c_str());
  }
  const int y_labels = std::max(2, static_cast<int>((a.max.y - a.min.y) / 28.0f));
  for (const Tick& t : ticks(a.y, y_labels)) {
    const float y = a.toScreen(a.x.lo, t.value).y;
    dl->AddLine({a.min.x, y}, {a.max.x, y}, t.label.empty() ? minor : grid);
    if (t.label.empty()) continue;
    const ImVec2 size = ImGui::CalcTextSize(t.label.c_str());
    dl->AddText({a.min.x - size.x - 5.0f, y - 0.5f * size.y}, dim, t.label.c_str());
  }
  dl->AddRect(a.min, a.max, IM_COL32(255, 255, 255, 70));
  const ImVec2 title = ImGui::CalcTextSize(spec.title.c_str());
  dl->AddText({0.5f * (a.min.x + a.max.x - title.x), a.min.y - title.y - 4.0f}, text, spec.title.c_str());
  const ImVec2 xl = ImGui::CalcTextSize(spec.x_label.c_str());
  dl->AddText({0.5f * (a.min.x + a.max.x - xl.x), a.max.y + 3.0f + xl.y}, dim, spec.x_label.c_str());
  // The y label sits above the tick labels, left-aligned (ImGui draws no rotated text).
  dl->AddText({a.min.x - left_margin + 2.0f, a.min.y - title.y - 4.0f}, dim, spec.y_label.c_str());
}

void drawSymbols(ImDrawList* dl, const Series& s, const std::vector<Point>& at) {
  for (const Point& c : at)
    for (const auto& seg : markerStrokes(s.marker, c, 3.5)) dl->AddLine({float(seg[0].x), float(seg[0].y)}, {float(seg[1].x), float(seg[1].y)}, toImColor(s.color), 1.2f);
}

void drawSeries(ImDrawList* dl, const PlotArea& a, const Series& s, size_t index) {
  std::vector<double> xs, ys;
  decimate(s.x, s.y, static_cast<int>(2.0f * (a.max.x - a.min.x)), xs, ys);
  std::vector<ImVec2> points;
  std::vector<std::vector<Point>> lines;  // for the symbols along the curve
  const ImU32 color = toImColor(s.color);
  const auto flush = [&] {
    lines.emplace_back();
    for (const ImVec2& p : points) lines.back().push_back({p.x, p.y});
    if (s.dash != Dash::solid) {
      for (const auto& [from, to] : dashSegments(lines.back(), s.dash, 2.0)) dl->AddLine({float(from.x), float(from.y)}, {float(to.x), float(to.y)}, color, 2.0f);
    } else if (points.size() > 1) {
      dl->AddPolyline(points.data(), static_cast<int>(points.size()), color, ImDrawFlags_None, 1.8f);
    }
    points.clear();
  };
  for (size_t i = 0; i < xs.size(); ++i) {
    const double ux = toUnit(a.x, xs[i]), uy = toUnit(a.y, ys[i]);
    if (!std::isfinite(ux) || !std::isfinite(uy)) {
      flush();  // a gap (a zero on a log axis, a missing value)
      continue;
    }
    const ImVec2 p = a.toScreen(xs[i], ys[i]);
    points.push_back({p.x, std::clamp(p.y, a.min.y - 1.0f, a.max.y + 1.0f)});
    if (s.markers) dl->AddCircleFilled(points.back(), 3.0f, color);
  }
  flush();
  drawSymbols(dl, s, markerPoints(lines, index));
}

// The legend's entries in `columns` columns: their box, and each entry's column width and line height.
struct LegendLayout {
  int entries = 0, columns = 1, rows = 0;
  float column = 0, line = 0;
  ImVec2 box{0, 0};
};

LegendLayout legendLayout(const PlotSpec& spec, int columns) {
  LegendLayout l;
  float width = 0;
  for (const Series& s : spec.series)
    if (!s.label.empty()) width = std::max(width, ImGui::CalcTextSize(s.label.c_str()).x), ++l.entries;
  l.line = ImGui::GetTextLineHeight(), l.column = width + 40.0f;
  l.columns = std::max(1, std::min(columns, l.entries));
  l.rows = (l.entries + l.columns - 1) / l.columns;
  l.box = {l.columns * l.column, l.rows * l.line + 6.0f};
  return l;
}

// The legend in a corner of the data: as many columns as the plot's height needs.
LegendLayout cornerLegend(const PlotSpec& spec, float height) {
  const LegendLayout one = legendLayout(spec, 1);
  const int per_column = std::max(1, static_cast<int>((height - 18.0f) / one.line));
  return legendLayout(spec, (one.entries + per_column - 1) / per_column);
}

// A corner box that would hide more than a quarter of the data goes below the plot instead, in as many
// columns as its width holds (the Compare tab's sixteen methods in a short plot).
bool legendBelow(const LegendLayout& corner, ImVec2 data) { return corner.box.x * corner.box.y > 0.25f * data.x * data.y; }

void drawEntries(ImDrawList* dl, const PlotSpec& spec, const LegendLayout& l, ImVec2 corner) {
  dl->AddRectFilled(corner, {corner.x + l.box.x, corner.y + l.box.y}, IM_COL32(15, 16, 20, 215), 3.0f);
  int k = 0;
  for (const Series& s : spec.series) {
    if (s.label.empty()) continue;
    const float x = corner.x + static_cast<float>(k / l.rows) * l.column, y = corner.y + 3.0f + static_cast<float>(k % l.rows) * l.line;
    dl->AddLine({x + 5.0f, y + 0.5f * l.line}, {x + 24.0f, y + 0.5f * l.line}, toImColor(s.color), 3.0f);
    drawSymbols(dl, s, {{x + 14.5, y + 0.5 * l.line}});
    dl->AddText({x + 30.0f, y}, ImGui::GetColorU32(ImGuiCol_Text), s.label.c_str());
    ++k;
  }
}

// In the corner whose box covers the fewest data points.
void drawCornerLegend(ImDrawList* dl, const PlotSpec& spec, const PlotArea& a, const LegendLayout& l) {
  const ImVec2 box = l.box;
  const ImVec2 corners[] = {{a.max.x - box.x - 6.0f, a.min.y + 6.0f}, {a.min.x + 6.0f, a.min.y + 6.0f},
                            {a.max.x - box.x - 6.0f, a.max.y - box.y - 6.0f}, {a.min.x + 6.0f, a.max.y - box.y - 6.0f}};
  int best = 0, fewest = INT32_MAX;
  for (int c = 0; c < 4; ++c) {
    int covered = 0;
    for (const Series& s : spec.series)
      for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
        const ImVec2 p = a.toScreen(s.x[i], s.y[i]);
        covered += p.x >= corners[c].x && p.x <= corners[c].x + box.x && p.y >= corners[c].y && p.y <= corners[c].y + box.y;
      }
    if (covered < fewest) fewest = covered, best = c;
  }
  drawEntries(dl, spec, l, corners[best]);
}

void drawHover(const PlotSpec& spec, const PlotArea& a) {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (!ImGui::IsItemHovered() || mouse.x < a.min.x || mouse.x > a.max.x) return;
  ImGui::GetWindowDrawList()->AddLine({mouse.x, a.min.y}, {mouse.x, a.max.y}, IM_COL32(255, 255, 255, 60));
  const double x = a.xAt(mouse.x);
  ImGui::BeginTooltip();
  ImGui::Text("%s = %.4g", spec.x_label.c_str(), x);
  for (const Series& s : spec.series) {
    if (s.x.empty() || s.label.empty()) continue;
    size_t best = 0;
    for (size_t i = 1; i < s.x.size(); ++i)
      if (std::abs(s.x[i] - x) < std::abs(s.x[best] - x)) best = i;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(toImColor(s.color)), "%s: %.4g", s.label.c_str(), s.y[best]);
  }
  ImGui::EndTooltip();
}

}  // namespace

ImU32 toImColor(const Color& c, float alpha) {
  const float lift = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b < 0.2f ? 0.75f : 0.0f;  // Newton's black on the dark plots
  return ImGui::ColorConvertFloat4ToU32({c.r + lift * (1 - c.r), c.g + lift * (1 - c.g), c.b + lift * (1 - c.b), alpha});
}

ImVec2 PlotArea::toScreen(double vx, double vy) const {
  return {static_cast<float>(min.x + toUnit(x, vx) * (max.x - min.x)), static_cast<float>(max.y - toUnit(y, vy) * (max.y - min.y))};
}
double PlotArea::xAt(float px) const { return fromUnit(x, (px - min.x) / (max.x - min.x)); }
double PlotArea::yAt(float py) const { return fromUnit(y, (max.y - py) / (max.y - min.y)); }

PlotArea drawPlot(const char* id, const PlotSpec& spec, ImVec2 size) {
  if (size.x <= 0.0f) size.x = ImGui::GetContentRegionAvail().x;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float height = size.y - kTopMargin - kBottomMargin, left_margin = leftMargin(spec, height);
  float below = 0;  // the widget grows by this under its axes for the legend
  LegendLayout legend;
  if (spec.legend) {
    const float width = size.x - left_margin - kRightMargin;
    legend = cornerLegend(spec, height);
    if (legend.entries > 0 && legendBelow(legend, {width, height})) {
      legend = legendLayout(spec, std::max(1, static_cast<int>(width / legend.column)));
      below = legend.box.y + 4.0f;
    }
  }
  ImGui::InvisibleButton(id, {size.x, size.y + below});
  PlotArea a{{origin.x + left_margin, origin.y + kTopMargin}, {origin.x + size.x - kRightMargin, origin.y + size.y - kBottomMargin}, spec.x, spec.y};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  drawAxes(dl, spec, a, left_margin);
  dl->PushClipRect(a.min, a.max, true);
  for (size_t i = 0; i < spec.series.size(); ++i) drawSeries(dl, a, spec.series[i], i);
  dl->PopClipRect();
  if (below > 0) {
    drawEntries(dl, spec, legend, {a.min.x, a.max.y + kBottomMargin});
  } else if (legend.entries > 0) {
    drawCornerLegend(dl, spec, a, legend);
  }
  drawHover(spec, a);
  return a;
}

}  // namespace qnsim::gui
