#include "app/gui/logic/fields.h"

#include <algorithm>
#include <cmath>

#include "core/common/parallel.h"
#include "core/math/svd3.h"

namespace qnsim::gui {

const std::array<ColorModeNames, 4>& colorModes() {
  static const std::array<ColorModeNames, 4> modes = {{{ColorMode::Region, "region", "material region", ""},
                                                       {ColorMode::Stress, "stress", "stress |P|", "stress |P| (Pa)"},
                                                       {ColorMode::Strain, "strain", "strain max|s-1|", "strain max|s - 1|"},
                                                       {ColorMode::Inversion, "inversion", "inversion", "inverted tets"}}};
  return modes;
}

std::vector<std::string> colorModeKeys() {
  std::vector<std::string> keys;
  for (const ColorModeNames& m : colorModes()) keys.push_back(m.key);
  return keys;
}
namespace {

double tetValue(const Model& model, const VecX& x, int e, ColorMode mode) {
  const Mat3 F = model.tets.deformationGradient(x, e);
  switch (mode) {
    case ColorMode::Inversion: return F.determinant() <= 0.0 ? 1.0 : 0.0;
    case ColorMode::Strain: return (svd3(F).sigma.array() - 1.0).abs().maxCoeff();
    case ColorMode::Stress: {
      Mat3 P;
      model.solid(model.tets.region[e]).energyAndStress(F, &P);
      return P.norm();
    }
    case ColorMode::Region: break;
  }
  return 0.0;
}

}  // namespace

void vertexField(const Model& model, const VecX& x, ColorMode mode, std::vector<float>& field) {
  field.clear();
  if (mode == ColorMode::Region) return;
  const int n = model.vertexCount(), nt = model.tets.size();
  std::vector<double> value(nt);
  parallelFor(nt, 256, [&](int begin, int end) {
    for (int e = begin; e < end; ++e) value[e] = model.tets.removed[e] ? 0.0 : tetValue(model, x, e, mode);
  });
  std::vector<double> sum(n, 0.0);
  std::vector<int> count(n, 0);
  for (int e = 0; e < nt; ++e)
    for (int c = 0; c < 4 && !model.tets.removed[e]; ++c) {  // removed tets (removal.h) colour nothing
      sum[model.tets.vertices[e][c]] += value[e];
      ++count[model.tets.vertices[e][c]];
    }
  if (mode != ColorMode::Inversion)
    for (int s = 0; s < model.springs.size(); ++s) {
      if (model.springs.removed[s]) continue;
      const Eigen::Vector2i& v = model.springs.vertices[s];
      const double strain = std::abs((vertex(x, v[0]) - vertex(x, v[1])).norm() / model.springs.rest_length[s] - 1.0);
      for (int c = 0; c < 2; ++c) {
        sum[v[c]] += strain;
        ++count[v[c]];
      }
    }
  field.resize(n);
  for (int v = 0; v < n; ++v) field[v] = count[v] > 0 ? static_cast<float>(sum[v] / count[v]) : 0.0f;
}

float robustMax(const std::vector<float>& field, float floor) {
  if (field.empty()) return floor;
  std::vector<float> sorted = field;
  const size_t k = std::min(sorted.size() - 1, static_cast<size_t>(0.98 * sorted.size()));
  std::nth_element(sorted.begin(), sorted.begin() + k, sorted.end());
  return std::max(sorted[k], floor);
}

}  // namespace qnsim::gui
